// Package writejob is the one core of every write to the service that is
// not an upload or a matter run (those came first and keep their own; see
// ARCHITECTURE.md): access changes, file deletions, an upload's undo.
//
// A job is a plan a person read (and could have read with --dry-run), made
// of items (target, action, parameters) grouped into sends: one request
// carries a send's items (an access POST several users of one project; a
// delete_file one file). The core records the job whole before anything
// goes, puts a send's items in flight in one transaction before its
// request (and checks the store's files are still its own as the request
// leaves: api.WithCheckBeforeSending with store.Unchanged), takes the
// service's answers matched one to one (a repeated or missing target is an
// error, never a success), and keeps what the service said was there
// before, which is what an undo puts back. After a kill, Resume asks the
// kind what the service now shows for every send in flight, then goes on.
//
// What differs between writes is a Kind: how a send is made, how its
// answer is read, how its effect is checked, and how its undo is planned.
package writejob

import (
	"context"
	"fmt"
	"github.com/vaultdeck/vaultdeck/api"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// Item is one change, as the store keeps it.
type Item = store.WriteJobItem

// Item states, as the store names them.
const (
	Planned  = store.ItemPlanned
	InFlight = store.ItemInFlight
	Done     = store.ItemDone
	Failed   = store.ItemFailed
	Unknown  = store.ItemUnknown
)

// Answer is what the service said of one item: the kind reads it from the
// service's answer (Send) or from what the service shows now (Check).
type Answer struct {
	// Target is the item's target as the answer named it: the core matches
	// answers to items by it, one to one.
	Target string
	// State is Done, Failed or Unknown; Planned (from Check only) says the
	// change did not take effect and may be sent again.
	State string
	// RetryLater: the service could not do it now (delete_file's 409 while
	// a file has pending jobs). The item is sent again after Deps.RetryAfter,
	// up to Deps.MaxAttempts sends; then it is failed and named.
	RetryLater bool
	// Outcome is the kind's word ("deleted", "gone", "added", "removed");
	// Previous what the service said was there before (undo's input).
	Outcome, Previous, Detail string
}

// Kind is what one sort of write supplies; the core drives it.
type Kind interface {
	// Name is the kind's name in the store ("delete_file", "access").
	Name() string
	// AuditType is the service's audit entry type for its requests, which
	// a receipt's evidence looks for.
	AuditType() string
	// Send sends one send's items as one request and reads the answer,
	// one Answer per item it names. An error means the answer is not
	// known (the items become unknown) unless it is api.ErrNotSent.
	Send(ctx context.Context, items []Item) ([]Answer, error)
	// Check reads what the service shows now of a send's items whose
	// answer was never recorded (a kill, a lost answer): Done when the
	// change took effect, Planned when it did not (sent again), Unknown
	// when the service cannot tell.
	Check(ctx context.Context, items []Item) ([]Answer, error)
	// Undo plans the undo of a job's done items: the items that put back
	// what each changed, and, named, the ones it will not touch because
	// the service shows something else than the job left.
	Undo(ctx context.Context, job store.WriteJob, done []Item) (*UndoPlan, error)
}

// UndoPlan is what an undo would do, and what it refuses.
type UndoPlan struct {
	Items   []Item
	Refused []Refusal
	Text    string // the plan as a person reads it
}

// Refusal names an item an undo leaves alone, and why.
type Refusal struct {
	Target, Label, Why string
}

// Journal is what the core asks of persistence; *store.Store satisfies
// it, a fake in the tests.
type Journal interface {
	// Check proves the file whole before a job is started or resumed.
	Check() error
	// Unchanged is asked as each request leaves (store.ErrChanged).
	Unchanged() error
	StartWriteJob(j store.WriteJob, items []store.WriteJobItem) (int64, error)
	SendingWriteJobItems(id int64, seqs []int) error
	SettleWriteJobItems(id int64, items []store.WriteJobItem) error
	FinishWriteJob(id int64, status, note string) error
	WriteJob(id int64) (store.WriteJob, error)
	WriteJobItems(id int64) ([]store.WriteJobItem, error)
	UndoneBy(id int64) ([]int64, error)
}

var _ Journal = (*store.Store)(nil)

// Plan is a job before it is recorded: its header (who, against what, the
// plan's text) and its items, each with the send that carries it.
type Plan struct {
	Job   store.WriteJob
	Items []Item
}

// NewPlan numbers the items in order and checks the sends: every item in
// a send numbered from 1, sends in order, no target twice in one send
// (the answer could not be matched to it).
func NewPlan(job store.WriteJob, items []Item) (*Plan, error) {
	seen := map[int]map[string]bool{}
	last := 0
	out := make([]Item, len(items))
	for i, it := range items {
		if it.Send < 1 || it.Send < last {
			return nil, fmt.Errorf("item %d (%s): send %d out of order", i+1, it.Target, it.Send)
		}
		last = it.Send
		if it.Target == "" || it.Action == "" {
			return nil, fmt.Errorf("item %d: no target or action", i+1)
		}
		if seen[it.Send] == nil {
			seen[it.Send] = map[string]bool{}
		}
		if seen[it.Send][it.Target] {
			return nil, fmt.Errorf("item %d: %s is twice in send %d", i+1, it.Target, it.Send)
		}
		seen[it.Send][it.Target] = true
		it.Seq, it.State = i+1, Planned
		out[i] = it
	}
	return &Plan{Job: job, Items: out}, nil
}

// Sends is how many requests the plan makes (before retries).
func (p *Plan) Sends() int {
	if len(p.Items) == 0 {
		return 0
	}
	return p.Items[len(p.Items)-1].Send
}

// Deps is what a run needs from outside.
type Deps struct {
	Store Journal
	// MaxAttempts bounds the sends of an item the service asks to retry
	// later (default 5); RetryAfter is the pause between rounds of them
	// (default 20 s).
	MaxAttempts int
	RetryAfter  time.Duration
	// Sleep waits d or until ctx ends (nil: a timer). Tests pass their own.
	Sleep func(ctx context.Context, d time.Duration) error
	// Progress is told after each send.
	Progress func(Progress)
}

// Progress is where a run is.
type Progress struct {
	Sent, Sends int // requests made, requests planned (before retries)
	Settled     int // items with a final answer
	Items       int
	Waiting     time.Duration // > 0: waiting this long before a retry round
	// Budget, when set, is the wait the next request is in before it goes
	// (the vault budget, a 429's Retry-After): nothing of it was sent yet.
	Budget *api.Wait
}

func (d Deps) maxAttempts() int {
	if d.MaxAttempts > 0 {
		return d.MaxAttempts
	}
	return 5
}

func (d Deps) retryAfter() time.Duration {
	if d.RetryAfter > 0 {
		return d.RetryAfter
	}
	return 20 * time.Second
}

func (d Deps) sleep(ctx context.Context, wait time.Duration) error {
	if d.Sleep != nil {
		return d.Sleep(ctx, wait)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Start records the plan as a job, every item planned, and returns its id.
// Nothing has been sent when it returns.
func Start(d Deps, p *Plan) (int64, error) {
	if err := d.Store.Check(); err != nil {
		return 0, err
	}
	return d.Store.StartWriteJob(p.Job, p.Items)
}
