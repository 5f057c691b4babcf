package mattersview

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// runState is shared by the page and its task's goroutine: the task writes
// progress and the receipt id, the page reads them when it redraws. The
// page closes stop to cancel between requests.
type runState struct {
	mu       sync.Mutex
	action   string
	progress matters.Progress
	receipt  int64
	done     bool
	wait     string // the wait in progress (budget, Retry-After), "" when none
	stop     chan struct{}
	stopped  bool // stop was closed (page side only)
}

func (r *runState) set(f func(*runState)) {
	r.mu.Lock()
	f(r)
	r.mu.Unlock()
}

func (r *runState) waiting() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.wait
}

// watch carries progress and waits of the run to the view and the footer.
func (r *runState) watch(progress page.Progress) matters.Watch {
	return matters.Watch{
		Progress: func(p matters.Progress) {
			r.set(func(r *runState) { r.progress, r.wait = p, "" })
			progress(fmt.Sprintf("request %d of %d", p.Request, p.Requests))
		},
		Wait: func(w api.Wait) {
			r.set(func(r *runState) { r.wait = w.String() })
			progress(w.String())
		},
	}
}

func (r *runState) snapshot() (matters.Progress, int64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.progress, r.receipt, r.done
}

func (r *runState) finished() bool {
	_, _, done := r.snapshot()
	return done
}

// tickMsg redraws the progress while a run goes on.
type tickMsg struct{ view page.ID }

// tick starts only once the root has the task (TaskStarted), so a test
// harness that runs tasks synchronously never loops on it.
func (m *Model) tick() tea.Cmd {
	id := m.id
	return tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{id} })
}

// service is the matter job's service, handed to the session (page.Env.Jobs).
func (m *Model) service() (matters.Service, error) {
	if m.env.Jobs == nil || m.env.Jobs.Matters == nil {
		return nil, errors.New("this session cannot change client matters, so no file is opened here (receipts can still be read)")
	}
	svc := m.env.Jobs.Matters
	if m.deps.Store == nil {
		return nil, errors.New("no local database for receipts: matters cannot be deleted without one")
	}
	return svc, nil
}

// runDeps is what the matter job (api/matters) needs for a run of this page: the service, the
// receipt store, and the names written on the receipt.
func (m *Model) runDeps(svc matters.Service) matters.Deps {
	be := m.env.Backend
	return matters.Deps{Service: svc, Store: m.deps.Store, Profile: m.deps.Profile, Endpoint: be.Base(), Who: func(ctx context.Context) (string, error) {
		w, err := be.WhoAmI(ctx)
		if err != nil {
			return "", err
		}
		return w.Email, nil
	}}
}

// withStop derives a context that ends when the page asks to stop; the
// run checks it between requests only.
func withStop(ctx context.Context, stop <-chan struct{}) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	select {
	case <-stop: // asked before the task started: no request may go
		cancel()
		return ctx, cancel
	default:
	}
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

func (m *Model) startDelete() tea.Cmd {
	svc, err := m.service()
	if err != nil {
		return page.Error(err)
	}
	st := &runState{action: "delete", stop: make(chan struct{})}
	m.run, m.mode = st, modeRun
	m.layout()
	d, plan, src := m.runDeps(svc), m.plan, matters.Source{Name: m.fileName, SHA256: m.file.SHA256}
	return page.Start(page.StartTask{
		Name:   "delete matters from " + sanitize.Line(m.fileName),
		Origin: m.id,
		// quitting waits for the request on the wire, so the receipt
		// learns what it did
		Stop: st.halt,
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			ctx, cancel := withStop(ctx, st.stop)
			defer cancel()
			id, rep, err := matters.Delete(ctx, d, src, plan, st.watch(progress))
			return finish(st, id, rep, err)
		},
	})
}

func (m *Model) askRestore() tea.Cmd {
	// in-flight pairs are checked against the service before any is sent
	n := m.receipt.Counts["deleted"] + m.receipt.Counts["in_flight"]
	switch {
	case m.receipt.Action != "delete":
		return page.Status("this receipt is a restore; open the deletion it undid to restore again")
	case n == 0:
		return page.Status("this receipt deleted no matters: there is nothing to restore")
	case m.deps.Store == nil:
		return page.Error(errNoStore)
	}
	// An earlier restore (here, on the command line, in another console)
	// may have restored it all: the plan is read first (SQLite: in a Cmd),
	// so that is said before asking to type a count for nothing.
	tag, st, rid := m.reqs.Next(m.id), m.deps.Store, m.receipt.ID
	return func() tea.Msg {
		plan, err := matters.PlanRestore(st, rid)
		return restorePlanned{Tag: tag, plan: plan, err: err}
	}
}

// restorePlanned is the restore's plan, read before asking.
type restorePlanned struct {
	page.Tag
	plan *matters.RestorePlan
	err  error
}

func (m *Model) restorePlanArrived(r restorePlanned) tea.Cmd {
	if !m.reqs.Current(r.Tag) {
		return nil
	}
	if r.err != nil {
		return page.Error(fmt.Errorf("receipt %d could not be read: %w", m.receipt.ID, r.err))
	}
	if r.plan.Candidates() == 0 {
		return page.Status(matters.NothingToRestore(r.plan))
	}
	// the count typed is what may be sent, as the command line's: the
	// pairs answered deleted and those sent without a recorded answer,
	// less any an earlier restore brought back
	n := r.plan.Candidates()
	what := fmt.Sprintf("the %s receipt %d deleted", plural.Count(n, "matter"), m.receipt.ID)
	if f := len(r.plan.InFlight); f > 0 {
		what = fmt.Sprintf("the matters receipt %d deleted (%d; %d of them were sent without a recorded answer and are restored only if the service shows this run deleted them)",
			m.receipt.ID, n, f)
	}
	msg := fmt.Sprintf("Restore %s (from %s) with POST /api/v2/matters? An upsert is never repeated automatically.",
		what, sanitize.Line(m.receipt.FileName))
	if done := len(r.plan.Done); done > 0 {
		msg += fmt.Sprintf(" %d more %s already restored by an earlier restore and %s not sent again.", done, plural.Verb(done, "was", "were"), plural.Verb(done, "is", "are"))
	}
	if len(r.plan.Later) > 0 {
		msg += " " + matters.LaterText(r.plan) + "."
	}
	m.confirm = widgets.NewConfirm(m.env.Theme, "Restore client matters", msg, fmt.Sprint(n))
	m.pending = m.startRestore
	return nil
}

func (m *Model) startRestore() tea.Cmd {
	svc, err := m.service()
	if err != nil {
		return page.Error(err)
	}
	st := &runState{action: "restore", stop: make(chan struct{})}
	m.run, m.mode = st, modeRun
	m.layout()
	d, rid := m.runDeps(svc), m.receipt.ID
	return page.Start(page.StartTask{
		Name:   fmt.Sprintf("restore matters of receipt %d", rid),
		Origin: m.id,
		// quitting waits for the request on the wire, so the receipt
		// learns what it did
		Stop: st.halt,
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			ctx, cancel := withStop(ctx, st.stop)
			defer cancel()
			plan, err := matters.PlanRestore(d.Store, rid)
			if err != nil {
				return page.Outcome{}, err
			}
			if plan.Candidates() == 0 {
				st.set(func(r *runState) { r.done = true })
				return page.Outcome{Text: matters.NothingToRestore(plan)}, nil
			}
			id, rep, err := matters.Restore(ctx, d, plan, st.watch(progress))
			return finish(st, id, rep, err)
		},
	})
}

// finish turns a report into the task's outcome: the counts and the
// receipt in the status line, an error when the run stopped early.
func finish(st *runState, id int64, rep *matters.Report, err error) (page.Outcome, error) {
	st.set(func(r *runState) { r.receipt, r.done = id, true })
	if rep == nil {
		return page.Outcome{}, err
	}
	text := countsText(rep.Counts()) + fmt.Sprintf(" · receipt %d", id)
	switch inc := matters.Incomplete(id, rep, err); {
	case inc != "": // a receipt that could not record everything is a failure
		return page.Outcome{}, fmt.Errorf("%s; lines sent: %s; %s", inc, rep.LinesSent(), text)
	case rep.Canceled:
		return page.Outcome{}, fmt.Errorf("canceled between requests; lines sent: %s; %s", rep.LinesSent(), text)
	case rep.Err != nil:
		return page.Outcome{}, fmt.Errorf("stopped: %w; lines sent: %s; %s", rep.Err, rep.LinesSent(), text)
	}
	return page.Outcome{Text: text}, nil
}

// countsText is matters.CountsText for people: "already absent 1".
func countsText[K ~string](c map[K]int) string {
	return strings.ReplaceAll(matters.CountsText(c), "_", " ")
}

func (m *Model) cancelRun() tea.Cmd {
	if m.run == nil || m.run.stopped {
		return nil
	}
	m.run.halt()
	return page.Status("stopping after the request on the wire; the receipt will say which lines were sent")
}

// halt asks the run to stop after the request on the wire. The page's c and
// the root's quit (the task's Stop) both call it, on the event loop.
func (st *runState) halt() {
	if !st.stopped {
		st.stopped = true
		close(st.stop)
	}
}

// taskDone opens the receipt of this page's run when it ends. The run
// stays (marked done) until the receipt arrives: the view is drawn in
// between and still shows the run.
func (m *Model) taskDone(d page.TaskDone) tea.Cmd {
	if d.Name == string(page.ChoreSyncAudit) && d.Err == nil && m.mode == modeReceipt && m.auditShort {
		return m.loadReceipt(m.receipt.ID) // the evidence asked for this sync: read it anew
	}
	if d.Origin != m.id || m.run == nil {
		return nil
	}
	m.run.set(func(r *runState) { r.done = true })
	_, id, _ := m.run.snapshot()
	if id == 0 {
		m.run = nil
		m.mode = modeList
		m.layout()
		return m.loadReceipts()
	}
	return m.openReceipt(id)
}
