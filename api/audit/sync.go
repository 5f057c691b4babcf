package audit

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// Job runs the audit-log job against one service with one mirror. Build it
// with its fields; the zero values of the optional ones are usable.
type Job struct {
	Svc    Service
	Mirror Mirror // nil: no mirror (Follow only; Sync needs one)
	// Clock paces requests and times progress; nil: the system clock. Give
	// the same clock as the api client's, so a fake clock moves both.
	Clock api.Clock
	// MaxRate caps the job's audit requests a minute below the budget's
	// limit (0: the limit). The limit is the organisation's: other
	// integrations spend it too.
	MaxRate int
	// Progress, when set, is told after every page.
	Progress func(Progress)
}

// Progress is where a sync stands after a page.
type Progress struct {
	Requests int           // audit requests this run
	Listed   int64         // entries the service listed this run
	Added    int64         // of those, new to the mirror
	UpTo     time.Time     // time of the newest entry synced
	Rate     float64       // entries a second this run
	ETA      time.Duration // until caught up, from the log time still to cover; <0 unknown
	CaughtUp bool
}

// SyncResult is a finished sync.
type SyncResult struct {
	Progress
	Log   string                 // the mirror's key for this workspace
	State store.AuditMirrorState // the mirror after the sync
}

func (j *Job) clock() api.Clock {
	if j.Clock != nil {
		return j.Clock
	}
	return api.SystemClock{}
}

// LogOf names the token's workspace log (whoami costs no audit budget).
func LogOf(ctx context.Context, svc Service) (string, *api.WhoAmI, error) {
	w, err := svc.WhoAmI(ctx)
	if err != nil {
		return "", nil, err
	}
	// The service does not document whoami's shape: the workspace id when
	// it is there, else the token's service user (who belongs to one
	// workspace), else nothing can tell two workspaces' logs apart.
	switch {
	case w.WorkspaceID != "":
		return LogKey(svc.Base(), w.WorkspaceID), w, nil
	case w.Email != "":
		return LogKey(svc.Base(), "user:"+strings.ToLower(w.Email)), w, nil
	}
	return "", w, errors.New("whoami named neither a workspace nor a user, so the audit mirror cannot tell whose log this is")
}

// Sync copies the log into the mirror from where it stopped (the earliest
// entry the first time) until a page is short, paced evenly inside the
// audit budget. Every page and its cursor are stored in one transaction,
// so a kill at any moment loses at most the pages in flight, and a rerun
// neither gaps nor repeats (entries are keyed by id). The next page is
// read while the last one is being stored (the cursor is the page's last
// id, known before it is stored): without a budget to wait for, the
// sync goes at the pace of the slower of the two, not of both added.
func (j *Job) Sync(ctx context.Context) (SyncResult, error) {
	if j.Mirror == nil {
		return SyncResult{}, errors.New("audit sync needs the local store")
	}
	ctx = j.checked(ctx)
	if err := j.Mirror.Check(); err != nil {
		return SyncResult{}, err
	}
	log, _, err := LogOf(ctx, j.Svc)
	if err != nil {
		return SyncResult{}, err
	}
	res := SyncResult{Log: log}
	st, err := j.Mirror.AuditState(ctx, log)
	if err != nil {
		return res, err
	}
	p := newPacer(j.clock(), j.gap())
	meter := newMeter(j.clock().Now(), st.Last)
	for {
		st, err = j.syncRun(ctx, p, log, st, meter)
		res.Progress, res.State = meter.progress, st
		if !errors.Is(err, store.ErrAuditCursorMoved) {
			return res, err
		}
		// another sync moved the cursor: go on from where it is now
		if st, err = j.Mirror.AuditState(ctx, log); err != nil {
			return res, err
		}
	}
}

// syncRun reads pages from st's cursor on and stores them in order, one
// page ahead, until a page is short or something fails. It returns the
// mirror's state after the last page stored.
func (j *Job) syncRun(ctx context.Context, p *pacer, log string, st store.AuditMirrorState, meter *meter) (store.AuditMirrorState, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages := make(chan store.AuditMirrorPage, 1)
	stored := make(chan error, 1)
	last := st
	go func() {
		var err error
		for pg := range pages {
			if err != nil {
				continue // drain, so the reader never blocks
			}
			if err = j.Mirror.SaveAuditPage(ctx, pg); err != nil {
				cancel()
				continue
			}
			before := last.Entries
			if last, err = j.Mirror.AuditState(ctx, log); err != nil {
				cancel()
				continue
			}
			meter.progress.Added += last.Entries - before
			meter.page(j.clock().Now(), pg, last.Last)
			if j.Progress != nil {
				j.Progress(meter.progress)
			}
		}
		stored <- err
	}()
	var readErr error
	cursor, started := st.Cursor, st.Started() && st.Cursor != ""
	ord := after(cursor, st.Last)
	for {
		pg, err := j.readPage(ctx, p, &ord, log, cursor, started)
		if err != nil {
			readErr = err
			break
		}
		select {
		case pages <- pg:
		case <-ctx.Done():
		}
		if pg.CaughtUp || ctx.Err() != nil {
			break
		}
		cursor, started = pg.Cursor, true
	}
	close(pages)
	if err := <-stored; err != nil {
		return last, err
	}
	if readErr == nil {
		readErr = ctx.Err()
	}
	return last, readErr
}

// readPage reads the page after cursor (the earliest entry when the
// mirror has none yet).
// ord is where the run stands: an answer that does not continue after it
// ends the sync before anything of it is stored.
func (j *Job) readPage(ctx context.Context, p *pacer, ord *order, log, cursor string, started bool) (store.AuditMirrorPage, error) {
	if err := p.wait(ctx); err != nil {
		return store.AuditMirrorPage{}, err
	}
	pg := store.AuditMirrorPage{Log: log, Prev: cursor}
	if !started {
		first, err := j.Svc.AuditEarliest(ctx, "")
		if err != nil {
			return store.AuditMirrorPage{}, err
		}
		pg.At = j.clock().Now()
		if first == nil {
			pg.Empty, pg.CaughtUp = true, true
			return pg, nil
		}
		if err := ord.take(*first); err != nil {
			return store.AuditMirrorPage{}, err
		}
		pg.Entries, pg.Cursor = []store.AuditEntry{EntryOf(*first)}, first.Value.ID
		return pg, nil
	}
	ap, err := j.Svc.AuditPage(ctx, cursor, api.MaxAuditTake, "")
	if err != nil {
		return store.AuditMirrorPage{}, err
	}
	if err := ord.take(ap.Entries...); err != nil {
		return store.AuditMirrorPage{}, err
	}
	pg.At = j.clock().Now()
	pg.Entries = entriesOf(ap.Entries)
	pg.Cursor = cursor
	if ap.Last != "" {
		pg.Cursor = ap.Last
	}
	pg.CaughtUp = !ap.Full || ap.Last == cursor
	return pg, nil
}

func entriesOf(items []api.Item[api.AuditEntry]) []store.AuditEntry {
	out := make([]store.AuditEntry, len(items))
	for i, it := range items {
		out[i] = EntryOf(it)
	}
	return out
}

// gap is the even spacing of this job's requests: the budget's window
// divided by the rate allowed (the audit limit, or MaxRate below it).
func (j *Job) gap() time.Duration {
	return PaceGap(j.Svc.Budget(api.CategoryAudit), j.MaxRate)
}

// budgetWindow matches the client's sliding window (a minute and a second),
// so requests spaced by window/limit never meet a full window.
const budgetWindow = time.Minute + time.Second

// PaceGap spaces requests evenly: limit requests in any budget window means
// one every window/limit, instead of the whole minute's worth at once and
// then a wait (which leaves nothing for anything else of the organisation
// for the rest of the minute). maxRate (> 0) lowers the rate; without a
// client-side limit and without maxRate there is no spacing.
func PaceGap(b api.BudgetStatus, maxRate int) time.Duration {
	rate := 0
	if !b.Unlimited && b.Limit > 0 {
		rate = b.Limit
	}
	if maxRate > 0 && (rate == 0 || maxRate < rate) {
		rate = maxRate
	}
	if rate <= 0 {
		return 0
	}
	return budgetWindow / time.Duration(rate)
}

// pacer sends at most one request per gap: the first at once, each later
// one gap after the previous (never earlier, never in a burst to make up
// for a slow answer).
type pacer struct {
	clock api.Clock
	gap   time.Duration
	last  time.Time
}

func newPacer(c api.Clock, gap time.Duration) *pacer { return &pacer{clock: c, gap: gap} }

func (p *pacer) wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if p.gap > 0 && !p.last.IsZero() {
		// At most one gap: more means the clock was set back since the
		// last request, and the hours it jumped are no pace to keep.
		if d := min(p.last.Add(p.gap).Sub(p.clock.Now()), p.gap); d > 0 {
			if err := p.clock.Sleep(ctx, d); err != nil {
				return err
			}
		}
	}
	p.last = p.clock.Now()
	return nil
}

// meter keeps a run's counts, rate and ETA.
type meter struct {
	start    time.Time
	fromLog  time.Time // the mirror's newest entry when the run began
	progress Progress
}

func newMeter(now, fromLog time.Time) *meter {
	return &meter{start: now, fromLog: fromLog, progress: Progress{ETA: -1}}
}

func (m *meter) page(now time.Time, p store.AuditMirrorPage, upTo time.Time) {
	pr := &m.progress
	pr.Requests++
	pr.Listed += int64(len(p.Entries))
	pr.UpTo = upTo
	pr.CaughtUp = p.CaughtUp
	if m.fromLog.IsZero() {
		m.fromLog = upTo // a first sync: the log's time starts at its first entry
	}
	elapsed := now.Sub(m.start)
	if elapsed > 0 {
		pr.Rate = float64(pr.Listed) / elapsed.Seconds()
	}
	pr.ETA = eta(m.start, now, m.fromLog, upTo, p.CaughtUp)
}

// eta estimates the time left from how fast the run has moved through the
// log's own time: the log time still to cover (up to now) at the log time
// covered per second so far. Unknown (-1) until the run has moved.
func eta(start, now, fromLog, upTo time.Time, caughtUp bool) time.Duration {
	if caughtUp {
		return 0
	}
	if fromLog.IsZero() || !upTo.After(fromLog) || !now.After(start) || upTo.IsZero() {
		return -1
	}
	covered := upTo.Sub(fromLog)
	left := now.Sub(upTo)
	if left <= 0 {
		return 0
	}
	return time.Duration(float64(now.Sub(start)) * float64(left) / float64(covered))
}

// String is the one-line progress of a terminal.
func (p Progress) String() string {
	s := fmt.Sprintf("%s (%d new) in %s, %.0f/s", plural.Count(p.Listed, "entry"), p.Added, plural.Count(p.Requests, "request"), p.Rate)
	if !p.UpTo.IsZero() {
		s += ", up to " + p.UpTo.UTC().Format("2006-01-02 15:04:05") + " UTC"
	}
	switch {
	case p.CaughtUp:
		s += ", caught up"
	case p.ETA >= 0:
		s += ", about " + p.ETA.Round(time.Second).String() + " left"
	}
	return s
}
