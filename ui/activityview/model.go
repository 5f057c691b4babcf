// Package activityview is the "Activity" view: the audit log at a glance, from
// the local mirror alone (no request): a histogram of entries over time,
// the range's top users, addresses and types, and marks on what stands out
// (api/audit's stats). Enter on a bar or a mark opens the audit view on
// exactly the entries behind it (page.Open with a FROM..UNTIL span).
package activityview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Model is the activity page.
type Model struct {
	env page.Env
	id  page.ID
	req page.Requests

	age  time.Duration // the range: this long back from now
	by   time.Duration // bucket width
	typ  string        // the histogram's type ("" every type)
	argE error         // a bad route argument

	stats   *audit.Stats
	mirror  store.AuditMirrorState
	err     error
	loading bool

	bar        int  // the selected bar
	onMarks    bool // the marks list has the focus
	mark       int  // the selected mark
	w, h       int
	markedBars map[int]audit.MarkKind
	// reread: r asked for the read under way, so its answer is said on
	// the status line (the same mirror read again changes nothing on
	// screen, and r would seem to do nothing)
	reread bool
}

// statsMsg is the mirror's answer.
type statsMsg struct {
	stats  audit.Stats
	mirror store.AuditMirrorState
}

// errNoStore: a session without the local database has no mirror.
var errNoStore = errors.New("this session has no local database, so no audit mirror to count: use `vaultdeck audit stats` on the machine that syncs it")

// New returns the activity view. arg: an age ("7d", "36h": the range,
// default 7d), "hour" or "day" (the buckets; default hour up to 3 days),
// and any other word a log type for the histogram.
func New(env page.Env, arg string) page.Page {
	m := &Model{env: env, id: env.NewID(), age: 7 * 24 * time.Hour}
	by := time.Duration(0)
	for _, w := range strings.Fields(sanitize.Line(arg)) {
		switch lw := strings.ToLower(w); {
		case lw == "hour" || lw == "day":
			by = map[string]time.Duration{"hour": time.Hour, "day": 24 * time.Hour}[lw]
		case isAge(lw):
			// one reading of the clock: two apart made "2d" an age of
			// 48h0m0.000001075s, which C then said (issue 42)
			now := env.Clock()
			t, err := audit.ParseWhen(lw, now)
			if err != nil || !t.Before(now) {
				m.argE = errors.New("the range must be an age such as 36h or 7d")
				continue
			}
			m.age = now.Sub(t)
		default:
			m.typ = w
		}
	}
	m.by = by
	if m.by == 0 {
		m.by = time.Hour
		if m.age > 72*time.Hour {
			m.by = 24 * time.Hour
		}
	}
	return m
}

func isAge(w string) bool {
	return len(w) > 1 && w[0] >= '0' && w[0] <= '9' && strings.IndexAny(w[len(w)-1:], "dhms") == 0 && !strings.ContainsAny(w, "-:")
}

// Init reads the stats.
func (m *Model) Init() tea.Cmd {
	if m.argE != nil {
		return tea.Batch(page.Error(m.argE), m.load())
	}
	return m.load()
}

// Close implements page.Closer.
func (m *Model) Close() { m.req.Stop() }

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title is the breadcrumb segment.
func (m *Model) Title() string { return "activity" }

// SetSize gives the view its area.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// range_ is what is asked now.
func (m *Model) range_() audit.StatsRange {
	now := m.env.Clock().UTC()
	return audit.StatsRange{Since: now.Add(-m.age), Until: now, By: m.by, Type: m.typ}
}

// load reads the stats from the mirror, in a command: no IO in Update.
func (m *Model) load() tea.Cmd {
	tag, ctx := m.req.Start(m.env.Context(), m.id)
	st, b, q := m.env.Journal, m.env.Backend, m.range_()
	m.loading = true
	return page.Fetch(ctx, tag, "stats", func(ctx context.Context) (statsMsg, error) {
		if st == nil {
			return statsMsg{}, errNoStore
		}
		log, err := audit.MirrorLog(ctx, st, b)
		if err != nil {
			return statsMsg{}, err
		}
		state, err := st.AuditState(ctx, log)
		if err != nil {
			return statsMsg{}, err
		}
		if !state.Started() {
			return statsMsg{}, audit.ErrNoMirror
		}
		s, err := audit.ReadStats(ctx, st, log, q)
		return statsMsg{stats: s, mirror: state}, err
	})
}

// Update routes the answer and the keys.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case page.Result[statsMsg]:
		if msg.View != m.id || !m.req.Current(msg.Tag) {
			return m, nil
		}
		m.loading = false
		reread := m.reread
		m.reread = false
		if msg.Err != nil {
			m.err = msg.Err
			return m, nil
		}
		m.got(msg.Value)
		if reread {
			return m, page.Status(fmt.Sprintf("mirror read again: %s up to %s", plural.Count(msg.Value.stats.Counted, "entry"), msg.Value.mirror.Last.Format("01-02 15:04")))
		}
	case page.TaskDone:
		if msg.Err == nil && msg.Name == string(page.ChoreSyncAudit) {
			return m, m.load() // the sync the hint asked for (L, or :audit's) ended: count the mirror it made
		}
	case tea.KeyMsg:
		return m, m.keys(msg)
	}
	return m, nil
}

// got shows new stats: the selection stays on the same time when it can,
// else on the newest bar.
func (m *Model) got(v statsMsg) {
	var at time.Time
	if m.stats != nil && m.bar < len(m.stats.Buckets) {
		at = m.stats.Buckets[m.bar].Start
	}
	m.err, m.stats, m.mirror = nil, &v.stats, v.mirror
	m.bar = len(v.stats.Buckets) - 1
	for i, b := range v.stats.Buckets {
		if !at.IsZero() && !at.Before(b.Start) && at.Before(b.End) {
			m.bar = i
		}
	}
	m.mark = min(m.mark, max(len(v.stats.Marks)-1, 0))
	m.onMarks = m.onMarks && len(v.stats.Marks) > 0
	m.markedBars = map[int]audit.MarkKind{}
	for _, mk := range v.stats.Marks {
		if i := m.bucketOf(mk.Start); i >= 0 && (mk.Kind == audit.MarkBurst || m.markedBars[i] == "") {
			m.markedBars[i] = mk.Kind
		}
	}
}

// bucketOf is the bar holding t (-1 when none).
func (m *Model) bucketOf(t time.Time) int {
	for i, b := range m.stats.Buckets {
		if !t.Before(b.Start) && t.Before(b.End) {
			return i
		}
	}
	return -1
}

// Help lists the view's own bindings.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	return []key.Binding{k.Earlier, k.Later, k.Up, k.Down, keys(k.NextTab, "bars / marks"), keys(k.Enter, "the entries behind it"),
		k.ByPeriod, keys(k.TypeCycle, "histogram of one type"), keys(k.Refresh, "read the mirror again")}
}

// ContextKeys implements page.KeyHinter: the keys that act now. While the
// mirror is read, or its range holds no bar, only reading again, the
// period and the type act; the bars' keys join when there are bars, tab
// when there are marks to go to.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	if m.stats == nil {
		return []key.Binding{keys(k.Refresh, "read the mirror again")}
	}
	if len(m.stats.Buckets) == 0 {
		return []key.Binding{k.ByPeriod, keys(k.TypeCycle, "histogram of one type"), keys(k.Refresh, "read the mirror again")}
	}
	var out []key.Binding
	for _, b := range m.Help() {
		if len(m.stats.Marks) > 0 || !slices.Contains(b.Keys(), k.NextTab.Keys()[0]) {
			out = append(out, b)
		}
	}
	return out
}

func keys(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// Chore implements page.ChoreHinter: without a mirror the hint asks for
// the audit sync.
func (m *Model) Chore() page.Chore {
	if m.stats == nil && errors.Is(m.err, audit.ErrNoMirror) {
		return page.ChoreSyncAudit
	}
	return page.ChoreNone
}
