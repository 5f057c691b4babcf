package writejob

import (
	"context"
	"errors"
	"fmt"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// Report is where a job stands after a run: its record and items as the
// store now holds them, and why the run stopped, if it did.
type Report struct {
	Job      store.WriteJob
	Items    []Item
	Err      error // why the run stopped early (a failed write, a lost answer, ...)
	Canceled bool
}

// Count is how many items are in state.
func (r *Report) Count(state string) int {
	n := 0
	for _, it := range r.Items {
		if it.State == state {
			n++
		}
	}
	return n
}

// Settled says every item has a final answer (done or failed): nothing is
// in flight, unknown or left to send.
func (r *Report) Settled() bool {
	return len(r.Items) == r.Count(Done)+r.Count(Failed)
}

// Run sends a recorded job's planned items, send by send. It refuses a job
// with items in flight or unknown: that is Resume's, which checks them on
// the service first.
func Run(ctx context.Context, d Deps, k Kind, id int64) *Report {
	unlock, err := hold(d, id)
	if err != nil {
		return held(d, id, err)
	}
	defer unlock()
	items, err := d.Store.WriteJobItems(id)
	if err != nil {
		return &Report{Err: err}
	}
	for _, it := range items {
		if it.State == InFlight || it.State == Unknown {
			return &Report{Items: items, Err: fmt.Errorf("write job %d: some of its items are in flight; resume it, which checks them on the service first", id)}
		}
	}
	return run(ctx, d, k, id, items)
}

// Resume carries on a job after a kill or a stop: every send whose answer
// was never recorded is checked on the service (Kind.Check) and settled by
// what it shows (done, or planned to be sent again), then the rest is sent.
func Resume(ctx context.Context, d Deps, k Kind, id int64) *Report {
	if err := d.Store.Check(); err != nil {
		return &Report{Err: err}
	}
	// held before anything is checked: another process's request in flight
	// would read as not applied, and be sent twice
	unlock, err := hold(d, id)
	if err != nil {
		return held(d, id, err)
	}
	defer unlock()
	items, err := d.Store.WriteJobItems(id)
	if err != nil {
		return &Report{Err: err}
	}
	for _, group := range sends(items, func(it Item) bool { return it.State == InFlight || it.State == Unknown }) {
		if ctx.Err() != nil {
			return finish(d, id, &Report{Canceled: true})
		}
		answers, err := k.Check(ctx, group)
		var settle []Item
		if err == nil {
			var matched []Answer
			if matched, err = Match(group, answers); err == nil {
				settle = fromCheck(group, matched)
			}
		}
		if err != nil {
			return finish(d, id, &Report{Err: fmt.Errorf("what request %d did could not be checked: %w", group[0].Send, err)})
		}
		if err := d.Store.SettleWriteJobItems(id, settle); err != nil {
			return finish(d, id, &Report{Err: err})
		}
	}
	if items, err = d.Store.WriteJobItems(id); err != nil {
		return &Report{Err: err}
	}
	return run(ctx, d, k, id, items)
}

// Locker is a journal that can hold a job for this process (store's
// LockWriteJob): one process at a time runs or resumes a job. A journal
// without it (a test's wrapper) holds nothing.
type Locker interface {
	LockWriteJob(id int64) (unlock func(), err error)
}

func hold(d Deps, id int64) (func(), error) {
	if l, ok := d.Store.(Locker); ok {
		return l.LockWriteJob(id)
	}
	return func() {}, nil
}

// held is the report of a job this process could not hold: the job and
// its items as the journal holds them now (read, nothing written), for a
// receipt to show, and why.
func held(d Deps, id int64, err error) *Report {
	rep := &Report{Err: err}
	if j, jerr := d.Store.WriteJob(id); jerr == nil {
		rep.Job = j
	}
	if items, ierr := d.Store.WriteJobItems(id); ierr == nil {
		rep.Items = items
	}
	return rep
}

// fromCheck turns what the service shows into the items' new states.
func fromCheck(group []Item, answers []Answer) []Item {
	out := make([]Item, len(group))
	for i, it := range group {
		a := answers[i]
		it.State, it.Outcome, it.Previous, it.Detail = a.State, a.Outcome, a.Previous, a.Detail
		if a.RetryLater {
			it.State = Planned
		}
		if it.Previous == "" {
			it.Previous = group[i].Previous
		}
		out[i] = it
	}
	return out
}

// run sends the planned items in rounds: each send once, then, after a
// pause, the ones the service asked to retry later, up to the bound.
func run(ctx context.Context, d Deps, k Kind, id int64, items []Item) *Report {
	rep := &Report{}
	total := 0
	if len(items) > 0 {
		total = items[len(items)-1].Send
	}
	sent := 0
	// the last progress told, which a wait before a request is added to: the
	// observer runs on the requesting goroutine, this one (api.WithWaitObserver)
	cur := Progress{Sends: total, Settled: settled(items), Items: len(items)}
	tell := func(p Progress) {
		cur = p
		if d.Progress != nil {
			d.Progress(p)
		}
	}
	if d.Progress != nil {
		ctx = api.AlsoObserveWaits(ctx, func(w api.Wait) {
			p := cur
			p.Waiting, p.Budget = 0, &w
			d.Progress(p)
		})
	}
	// the bound on retries is this run's: a resume after a kill is a new
	// run, and a send the kill stopped before it left is not a try
	tries := map[int]int{}
	for round := 0; rep.Err == nil && !rep.Canceled; round++ {
		groups := sends(items, func(it Item) bool { return it.State == Planned && tries[it.Seq] < d.maxAttempts() })
		if len(groups) == 0 {
			break
		}
		if round > 0 {
			tell(Progress{Sent: sent, Sends: total, Settled: settled(items), Items: len(items), Waiting: d.retryAfter()})
			if d.sleep(ctx, d.retryAfter()) != nil {
				rep.Canceled = true
				break
			}
		}
		for _, group := range groups {
			if ctx.Err() != nil {
				rep.Canceled = true
				break
			}
			for _, it := range group {
				tries[it.Seq]++
			}
			settle, stop := sendOne(ctx, d, k, id, group, tries[group[0].Seq])
			if stop != nil && settle == nil {
				rep.Err = stop
				break
			}
			sent++
			if err := d.Store.SettleWriteJobItems(id, settle); err != nil {
				// the answers are not recorded: the items stay in flight,
				// and a resume asks the service what they did
				rep.Err = errors.Join(stop, err)
				break
			}
			for _, it := range settle {
				items[it.Seq-1] = it
			}
			tell(Progress{Sent: sent, Sends: total, Settled: settled(items), Items: len(items)})
			if stop != nil {
				rep.Err = stop
				break
			}
		}
	}
	return finish(d, id, rep)
}

// sendOne puts a send in flight, sends it and reads its answer into the
// items' new states. settle nil with stop: nothing was sent (the in-flight
// write failed). stop is why the run must not go on.
func sendOne(ctx context.Context, d Deps, k Kind, id int64, group []Item, try int) (settle []Item, stop error) {
	seqs := make([]int, len(group))
	for i, it := range group {
		seqs[i] = it.Seq
	}
	if err := d.Store.SendingWriteJobItems(id, seqs); err != nil {
		return nil, err
	}
	for i := range group {
		group[i].Attempts++
		group[i].State = InFlight
	}
	answers, err := k.Send(api.WithCheckBeforeSending(ctx, d.Store.Unchanged), group)
	settle = make([]Item, len(group))
	copy(settle, group)
	var matched []Answer
	if err == nil {
		matched, err = Match(group, answers)
	}
	switch {
	case errors.Is(err, api.ErrNotSent):
		for i := range settle {
			settle[i].State, settle[i].Detail = Planned, "not sent: "+err.Error()
		}
		return settle, err
	case err != nil:
		for i := range settle {
			settle[i].State, settle[i].Detail = Unknown, "the answer is not known: "+err.Error()
		}
		return settle, err
	}
	for i, a := range matched {
		it := &settle[i]
		it.State, it.Outcome, it.Previous, it.Detail = a.State, a.Outcome, a.Previous, a.Detail
		if a.RetryLater {
			it.State = Planned
			if try >= d.maxAttempts() {
				it.State = Failed
				it.Detail = fmt.Sprintf("%s (still so after %s; try again later)", a.Detail, plural.Count(try, "attempt"))
			}
		}
	}
	return settle, nil
}

// finish closes the job with what the store holds now.
func finish(d Deps, id int64, rep *Report) *Report {
	items, err := d.Store.WriteJobItems(id)
	if err != nil {
		rep.Err = errors.Join(rep.Err, err)
		return rep
	}
	rep.Items = items
	status, note := store.JobComplete, ""
	switch {
	case rep.Canceled:
		status, note = store.JobCanceled, "canceled"
	case rep.Err != nil:
		status, note = store.JobStopped, rep.Err.Error()
	case !rep.Settled():
		status, note = store.JobStopped, fmt.Sprintf("%s not settled", plural.Count(len(items)-rep.Count(Done)-rep.Count(Failed), "item"))
	}
	if err := d.Store.FinishWriteJob(id, status, note); err != nil {
		rep.Err = errors.Join(rep.Err, err)
	}
	if j, err := d.Store.WriteJob(id); err == nil {
		rep.Job = j
	} else {
		rep.Err = errors.Join(rep.Err, err)
	}
	return rep
}

// sends groups the items keep picks by their send, in order.
func sends(items []Item, keep func(Item) bool) [][]Item {
	var out [][]Item
	last := -1
	for _, it := range items {
		if !keep(it) {
			continue
		}
		if it.Send != last {
			out = append(out, nil)
			last = it.Send
		}
		out[len(out)-1] = append(out[len(out)-1], it)
	}
	return out
}

func settled(items []Item) int {
	n := 0
	for _, it := range items {
		if it.State == Done || it.State == Failed {
			n++
		}
	}
	return n
}
