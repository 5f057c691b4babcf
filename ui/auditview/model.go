// Package auditview is the "Audit" view: the workspace audit log newest first,
// read backwards in windows (api/audit's Older) from the local mirror where
// it reaches and from the service otherwise, with jumps to the oldest, the
// newest and any time, filters by type, user and address, a live follow,
// and a detail pane.
package auditview

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// windowSize is how many entries one read back (or forward) asks for: a
// few screens, quick to render; the service is read a stretch of time at a
// time anyway, the mirror in one query.
const windowSize = 200

// nearEnd is how close (in rows) the cursor must come to the bottom (or,
// when the top is not the newest, to the top) before the next window.
const nearEnd = 20

// Model is the audit page.
type Model struct {
	env  page.Env
	id   page.ID
	req  page.Requests // the entries' reads: a new filter or jump makes older answers stale
	side page.Requests // the mirror's sync, in the background
	poll page.Requests // the follow's reads
	job  *audit.Job    // reads a person waits for: not paced (the client's budget holds)
	// syncJob keeps the mirror in the background, paced evenly inside the
	// audit budget.
	syncJob *audit.Job

	filter   store.AuditFilter // Type, User, IP
	entries  []store.AuditEntry
	byID     map[string]int
	types    map[string]struct{}
	atNewest bool // the top row is the log's newest entry (for this filter)
	atStart  bool // the bottom row is its oldest
	loading  string
	fromNote string // where the last window came from, for the header
	// walk is the service's newest-first read the bottom row came from,
	// kept so the window below it reads on where it stands (no stretch
	// read twice); a read that uses it holds it until its answer.
	walk *audit.Walk

	log, self string                 // the mirror's key and the token's user (whoami)
	mirror    store.AuditMirrorState // the mirror's reach after the last sync
	syncing   bool
	synced    bool
	syncProg  *atomic.Pointer[audit.Progress] // the sync's last page, written by its goroutine
	clock     page.Clock                      // redraws the sync's position while it runs

	jumpTo time.Time  // the time of the last jump asked for
	watch  *readWatch // what the read under way is doing (wait.go); nil when none

	showOwn   bool // this token's own reads are shown (h); hidden by default (own.go)
	ownHidden int  // own reads held and not shown

	following bool
	newCount  int // entries the follow added while the cursor was away from the top
	caughtUp  bool
	// pollCursor is the last entry the follow read, shown or not (a filter
	// hides some): the next look starts after it.
	pollCursor string

	widgets.TableView
	loader  *widgets.Loader
	lastErr error

	detail     bool
	detailID   string // the entry shown (the follow may add entries above it)
	detailPane *widgets.Pane

	prompt      string // "type", "user", "ip", "time" while a prompt is open
	promptErr   string // why the value typed was not taken (shown under the prompt)
	input       widgets.Input
	pickingType bool
	picker      []string
	pickAt      int

	// count is a saved view's --limit (count.go): the rows its first
	// landing at the newest holds, not filled on unasked; noCount when
	// not opened from one, or once another landing replaced them.
	count int

	initial route
	inSpan  bool // the span of the route alone is shown (FROM..UNTIL)
	// rel are the ages the route's span was given as ("1d..0s": the
	// last day), kept so its query stays relative (query.go); empty
	// when it was given as times.
	rel [2]string
}

// New returns the audit view; arg is read by parseRoute (a time to land
// on, a type, a user, an address).
func New(env page.Env, arg string) page.Page {
	m := &Model{
		env:    env,
		id:     env.NewID(),
		types:  map[string]struct{}{},
		byID:   map[string]int{},
		loader: widgets.NewLoader(env.Theme),
		count:  noCount,
	}
	// The job reads "now" from the view's clock (pinned in tests and
	// goldens), so its stretches of time start where the log's time is.
	m.syncJob = &audit.Job{Svc: traced{Service: env.Backend, now: env.Clock}, Clock: envClock{env}}
	prog := &atomic.Pointer[audit.Progress]{}
	m.syncProg = prog
	m.syncJob.Progress = func(p audit.Progress) { prog.Store(&p) }
	if env.Journal != nil {
		m.syncJob.Mirror = env.Journal
	}
	m.job = m.syncJob.Interactive()
	m.job.Progress = nil
	m.TableView = widgets.NewTableView(env.Theme, env.Keys, m.id, columns(), headerLines)
	m.Table.SetLoading(func() bool { return m.loading != "" })
	m.input = widgets.Input{PromptStyle: env.Theme.Input, CursorStyle: env.Theme.TextCursor, CharLimit: 200}
	r, err := parseRoute(arg, env.Clock())
	if err != nil {
		m.lastErr = err
	}
	m.initial = r
	if !r.Until.IsZero() {
		m.rel = relativeSpan(arg)
	}
	m.filter = store.AuditFilter{Type: r.Type, User: r.User, IP: r.IP}
	m.fixColumns()
	return m
}

func columns() []widgets.Column {
	return []widgets.Column{
		// the type and the user keep their distinguishing ends
		// (user:word_add_in_…_open); the time loses its year and seconds
		// first, and stays (priority 1): a log read without its times is
		// none
		colTime: {Title: columnTitles[colTime], Width: len(timeLayout), Min: 11, Priority: 1, Elide: widgets.ElideDate},
		colType: {Title: columnTitles[colType], Width: 14, Min: 10, Grow: 2, Priority: 3, Elide: widgets.ElideMiddle},
		colUser: {Title: columnTitles[colUser], Width: 14, Min: 8, Grow: 2, Priority: 2, Elide: widgets.ElideEmail},
		colIP:   {Title: columnTitles[colIP], Width: 15, Priority: 1},
		numCols: {Title: "entry id", ExportOnly: true, RowID: true},
	}
}

// Init learns who the token is (for the mirror's key and to recognise the
// view's own reads), then lands: on the newest entries, or on the time the
// route named.
func (m *Model) Init() tea.Cmd {
	if m.lastErr != nil {
		return page.Error(m.lastErr)
	}
	return m.start()
}

// Close implements page.Closer: requests in flight are abandoned.
func (m *Model) Close() { m.req.Stop(); m.side.Stop(); m.poll.Stop() }

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title is the breadcrumb segment.
func (m *Model) Title() string { return "audit" }

// SetSize gives the view its area: one header line above the table.
func (m *Model) SetSize(w, h int) {
	m.TableView.SetSize(w, h)
	m.fitHeader()
	if m.detailPane != nil {
		m.detailPane.SetSize(w, max(h-m.TableView.Header, 3))
	}
	m.input.Width = max(w-26, 1)
}

// CapturesInput keeps typed keys in a prompt or the table filter.
func (m *Model) CapturesInput() bool {
	return m.prompt != "" || m.pickingType || m.TableView.CapturesInput()
}

// WantsEsc: esc closes the detail pane, a prompt or the filter first.
func (m *Model) WantsEsc() bool {
	return m.detail || m.prompt != "" || m.pickingType || m.TableView.WantsEsc()
}

// Help lists the view's own bindings.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	enter := k.Enter
	enter.SetHelp(enter.Help().Key, "entry details")
	return append(k.Navigation(), enter, k.TypeCycle, k.TypeFilter, k.AuditUser, k.AuditIP, k.AuditJump, k.Follow, k.OwnReads, k.Activity, k.Person)
}

// Update routes responses, keys and the table's filter results.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	p, cmd := m.update(msg)
	m.fitHeader()
	return p, cmd
}

func (m *Model) update(msg tea.Msg) (page.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case page.Result[whoMsg]:
		return m, m.gotWho(msg)
	case page.Result[windowMsg]:
		return m, m.gotWindow(msg)
	case page.Result[syncMsg]:
		return m, m.gotSync(msg)
	case page.Result[pollMsg]:
		return m, m.gotPoll(msg)
	case page.ClockTick:
		return m, m.clock.Tick(m.env, m.id, m.syncing)
	case pollTick:
		return m, m.pollNow(msg)
	case tea.KeyMsg:
		return m, m.key(msg)
	case widgets.FilterResult:
		return m, m.Table.Update(msg)
	}
	return m, m.loader.Update(msg)
}

// envClock is the view's clock as the job's: Now from the Env, Sleep real.
type envClock struct{ env page.Env }

func (c envClock) Now() time.Time { return c.env.Clock() }

func (envClock) Sleep(ctx context.Context, d time.Duration) error { return api.Sleep(ctx, d) }
