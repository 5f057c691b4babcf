package recyclebinview

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

const cacheKey = person.CacheRecycleBin

// Model is the recycle-bin page.
type Model struct {
	env               page.Env
	audit             map[string]string // entry ID -> its deletion's audit evidence (detail pane)
	auditShort        map[string]bool   // entry ID -> its evidence asks for an audit sync
	id                page.ID
	widgets.TableView // table, size, filter capture, esc, selected and marked IDs
	loader            *widgets.Loader
	reqs              page.Requests

	query api.RecycleBinQuery
	set   *binSet // as loaded, newest first; shared with other sessions showing the same answer: never modified
	shown binRows // the entries shown (all, or the soon/deleter subset): the entries table's source
	// soon.go: the purging-soon filter, the deleter filter, the by-deleter
	// table (Tabs[1]); the badge counts the set's sorted purge times.
	soon, grouped bool
	groupList     []purge.Group // the by-deleter table's source, row i group i
	window        time.Duration // soon's window when a saved view set one (query.go); 0: a week
	deleter       string
	fromGroups    bool // the deleter filter was opened from the groups: esc goes back to them
	groups        int
	state         page.LoadState // loading / loaded (age) / empty / failed
	clock         page.Clock     // 1-second tick while the age is shown
	// shownAt is when the answer shown was read (the cache's time for a
	// cached one), askedAt when the last load began: a purge time passed
	// since shownAt reloads the bin (purged.go).
	shownAt, askedAt time.Time

	detail *api.RecycleBinEntry // open detail pane
	pane   *widgets.Pane        // its scrolling view
	matter *widgets.Input       // open client-matter input

}

type (
	loaded    = page.Result[prepared]
	fromCache = page.Result[page.Cached[prepared]]
)

// New builds the page; arg, when a UUID, is a client-matter filter.
func New(env page.Env, arg string) page.Page {
	m := &Model{env: env, id: env.NewID(), loader: widgets.NewLoader(env.Theme)}
	cols := Columns()
	cols[ColPurgeIn].Live = PurgeLive(env.Clock)
	gcols := groupColumns(purge.Soon)
	gcols[gColNext].Live = PurgeLive(env.Clock)
	m.TableView = widgets.NewTabbedTableView(env.Theme, env.Keys, m.id, 1, cols, gcols)
	for _, t := range m.Tabs {
		t.SetLoading(func() bool { return m.state.Loading() || m.loader.Active() })
	}
	if arg = strings.TrimSpace(arg); api.IsUUID(arg) {
		m.query.ClientMatterID = arg
	}
	return m
}

// Close implements page.Closer: a request still in flight is abandoned.
func (m *Model) Close() { m.reqs.Stop() }

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title implements page.Page.
func (m *Model) Title() string { return "recycle bin" }

// Help lists this page's keys.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	return []key.Binding{k.Enter, k.MatterFilter, k.PurgingSoon, k.ByDeleter, k.AuditAround, k.Person, k.Refresh, k.Copy}
}

// CapturesInput is true while a filter or the matter input has the keyboard.
func (m *Model) CapturesInput() bool { return m.matter != nil || m.TableView.CapturesInput() }

// WantsEsc is true while something can be closed or undone: the detail,
// the name filter, then the client-matter filter, before esc leaves.
func (m *Model) WantsEsc() bool {
	return m.detail != nil || m.TableView.WantsEsc() || m.grouped || m.deleter != "" || m.query.ClientMatterID != "" || m.query.Name != ""
}

// SelectedID is the vault project ID of the selected entry (what other
// commands take), else the entry's own ID.
func (m *Model) SelectedID() string {
	if m.grouped {
		return m.TableView.SelectedID() // the person's e-mail
	}
	e := m.selected()
	if e == nil {
		return ""
	}
	if e.VaultProject.ID != "" {
		return e.VaultProject.ID
	}
	return e.ID
}

// MarkedIDs are the marked entries' IDs as SelectedID gives them (the
// vault project's ID), for `y`.
func (m *Model) MarkedIDs() []string {
	if m.grouped {
		return m.TableView.MarkedIDs()
	}
	var out []string
	for _, i := range m.Table.MarkedIndexes() {
		e := m.shown.entry(i)
		id := e.VaultProject.ID
		if id == "" {
			id = e.ID
		}
		out = append(out, id)
	}
	return out
}

func (m *Model) selected() *api.RecycleBinEntry {
	// the entries table's source is m.shown (apply and refilter set both):
	// its index is theirs
	if m.grouped {
		return nil
	}
	if i, ok := m.Table.SelectedIndex(); ok && i < m.shown.Len() {
		return m.shown.entry(i)
	}
	return nil
}

// timed reports whether the page shows text that follows the clock: an
// age, a wait, or purge countdowns.
func (m *Model) timed() bool { return m.state.Timed() || m.shown.Len() > 0 }

// Deactivate implements page.Activatable: a covered page needs no tick.
func (m *Model) Deactivate() { m.clock.Pause() }

// Activate implements page.Activatable.
func (m *Model) Activate() tea.Cmd { return m.clock.Resume(m.env, m.id, m.timed()) }

// Shows implements page.Reloader: the bin shows what is cached under its key.
func (m *Model) Shows(key string) bool { return key == cacheKey }

// Reload implements page.Reloader (a task changed the bin).
func (m *Model) Reload() tea.Cmd { return m.load() }

// SetSize implements page.Page; one line goes to the view's own info line.
func (m *Model) SetSize(w, h int) {
	m.TableView.SetSize(w, h)
	m.fitHeader()
	m.sizeDetail()
}

// Init shows cached data when there is some (the vault budget is 10
// requests a minute), else loads. The cache is read in a command.
func (m *Model) Init() tea.Cmd {
	if m.query == (api.RecycleBinQuery{}) && m.env.Cache != nil {
		tag := m.reqs.Next(m.id)
		now, be, ctx := m.env.Clock, m.env.Backend, m.env.Context()
		return page.ReadCache(m.env.Cache, cacheKey, tag, func(body []byte, at time.Time) (prepared, error) {
			var rb api.RecycleBin
			if err := json.Unmarshal(body, &rb); err != nil {
				return prepared{}, err
			}
			// sessions reading the same cached body share one decode
			return prepare(be, ctx, api.RecycleBinQuery{}, &rb, at, now()), nil
		})
	}
	return m.load()
}

func (m *Model) load() tea.Cmd {
	m.askedAt = m.env.Clock()
	tag, ctx := m.reqs.Start(m.env.Context(), m.id)
	ctx = m.state.Begin(ctx) // budget and Retry-After waits are shown as such
	if m.query == (api.RecycleBinQuery{}) {
		ctx = page.KeepBody(ctx, m.env.Cache, cacheKey) // the body as received, written off the event loop
	}
	m.loader.Reset()
	q, be, now := m.query, m.env.Backend, m.env.Clock
	return tea.Batch(m.loader.Start(), page.Fetch(ctx, tag, "list",
		func(ctx context.Context) (prepared, error) {
			items, s, err := be.RecycleBin(q).Collect(ctx)
			if err != nil {
				return prepared{}, err
			}
			rb := &api.RecycleBin{Items: items, Total: s.Total}
			t := now()
			return prepare(be, ctx, q, rb, t, t), nil
		}))
}

// prepared is a response made ready for the table in the command that
// fetched or read it: ordered newest first and indexed (binSet), shared
// with the sessions on the same token that show an equal answer (no rows
// are built: the table builds the visible ones). Applying it in Update
// only swaps pointers in.
type prepared struct {
	set *binSet
	at  time.Time
	now time.Time // the source's load time (purge text of the filter haystacks)
}

// prepare never modifies rb: the Share may have handed it to other
// sessions too.
func prepare(be page.Backend, ctx context.Context, q api.RecycleBinQuery, rb *api.RecycleBin, at, now time.Time) prepared {
	return prepared{set: shareSet(be, ctx, q, newBinSet(rb)), at: at, now: now}
}

func (m *Model) apply(p prepared) tea.Cmd {
	m.set, m.shownAt = p.set, p.at
	if m.narrowed() {
		return m.refilter()
	}
	m.shown = rowsOf(p.set, nil, p.now)
	return tea.Batch(m.Tabs[0].SetSource(m.shown), m.regroup(m.env.Clock()))
}

// Update implements page.Page.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	p, cmd := m.update(msg)
	m.fitHeader()
	return p, cmd
}

func (m *Model) update(msg tea.Msg) (page.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case fromCache:
		if !m.reqs.Current(msg.Tag) {
			return m, nil
		}
		if msg.Err != nil {
			return m, m.load() // nothing usable cached
		}
		m.state.Loaded(msg.Value.At, true)
		return m, tea.Batch(m.apply(msg.Value.Value), m.clock.Keep(m.env, m.id, m.timed()))
	case loaded:
		if !m.reqs.Current(msg.Tag) {
			return m, nil // superseded by a newer filter or refresh
		}
		m.loader.Done()
		if msg.Err != nil {
			m.state.Failed(msg.Err) // shown on the page; rows already shown stay, marked stale
			return m, tea.Batch(page.Error(fmt.Errorf("the recycle bin could not be loaded: %w", msg.Err)),
				m.clock.Keep(m.env, m.id, m.timed()))
		}
		m.state.Loaded(msg.Value.at, false)
		cmd := m.apply(msg.Value)
		return m, tea.Batch(cmd, m.clock.Keep(m.env, m.id, m.timed()))
	case page.ClockTick:
		tick := m.clock.Tick(m.env, m.id, m.timed())
		if m.purgedSinceShown(m.env.Clock()) {
			return m, tea.Batch(tick, m.load())
		}
		return m, tick
	case auditFound:
		if m.audit == nil {
			m.audit = map[string]string{}
		}
		m.audit[msg.entry] = msg.text
		if m.auditShort == nil {
			m.auditShort = map[string]bool{}
		}
		m.auditShort[msg.entry] = msg.short
		m.sizeDetail()
		return m, nil
	case page.TaskDone:
		return m, m.choreDone(msg)
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	case widgets.FilterResult:
		return m, m.Table.Update(msg)
	}
	return m, m.loader.Update(msg)
}

// View implements page.Page.
func (m *Model) View() string {
	if m.detail != nil {
		return m.pane.View()
	}
	if m.state.FailedEmpty() {
		return m.infoLine() + "\n" + m.env.Theme.Error.Render(m.state.FailedView("The recycle bin"))
	}
	return m.infoLine() + "\n" + m.Table.View()
}

func (m *Model) infoLine() string { return strings.Join(m.infoLines(), "\n") }

// infoLines is the line above the table, wrapped rather than cut
// (widgets.Fit): the filter's UUID and a failure's reason stay whole; the
// title and a plain "loading" or cache age give way first.
func (m *Model) infoLines() []string {
	th := m.env.Theme
	if m.matter != nil {
		return []string{m.matter.View()}
	}
	var parts []widgets.Part
	if !m.state.FailedEmpty() && (!m.state.Loading() || m.shown.Len() > 0) {
		parts = append(parts, widgets.Keep(plural.Count(m.shown.Len(), "entry")))
	}
	if b := m.badge(); b != "" {
		parts = append(parts, widgets.Keep(th.Error.Render(b)))
	}
	if m.soon {
		parts = append(parts, widgets.Keep("purging within "+purge.FormatWindow(m.soonWindow())))
	}
	if m.deleter != "" {
		parts = append(parts, widgets.Keep("deleted by "+sanitize.Line(m.deleter)))
	}
	if m.grouped {
		parts = append(parts, widgets.Keep("by deleter: "+plural.Count(m.groups, "person", "people")))
	}
	if m.query.ClientMatterID != "" {
		parts = append(parts, widgets.Keep("client-matter "+m.query.ClientMatterID))
	}
	if m.query.Name != "" { // a saved view's --name, asked of the service
		parts = append(parts, widgets.Keep("name holds "+strconv.Quote(sanitize.Line(m.query.Name))))
	}
	info := widgets.Info{Title: "Recycle bin", Parts: parts, State: &m.state, Loader: m.loader}
	return info.Lines(th, m.Width, m.env.Clock())
}

// fitHeader gives the table what the info line leaves when it wraps.
func (m *Model) fitHeader() {
	if n := len(m.infoLines()); n != m.TableView.Header && m.Height > 0 {
		m.TableView.Header = n
		m.TableView.SetSize(m.Width, m.Height)
	}
}
