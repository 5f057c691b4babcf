package projectsview

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

const (
	perPage  = 100
	cacheKey = person.CacheProjects
	// prefetch is how close to the last loaded row the cursor gets before
	// the next page is asked for.
	prefetch = 20
)

// snapshot is what the cache keeps: the loaded pages of the unfiltered
// list, in the format file status reads names from (api.ProjectListing).
type snapshot = api.ProjectListing

// Model is the projects page.
type Model struct {
	env               page.Env
	id                page.ID
	widgets.TableView // table, size, filter capture, esc, selected and marked IDs
	loader            *widgets.Loader
	reqs              page.Requests

	data    snapshot
	name    string // server-side name filter in effect
	rowsFor string // the name filter the rows shown were listed for
	// openOnLoad: enter came while the rows shown were not yet those of
	// the name filter ("/Juniper⏎⏎" in one burst); the listing's first
	// row opens when it arrives, not the old list's row under the cursor.
	openOnLoad bool
	typing     uint64 // debounce generation of the name filter
	loading    bool
	state      page.LoadState // loading / loaded (age) / empty / failed
	clock      page.Clock     // 1-second tick while an age is shown
	// guard checks that each page appended is progress (a server that
	// repeats a page under an enormous total_pages would otherwise grow
	// the table as far as the user scrolls); new with every page 1.
	guard *api.PageGuard
	held  *api.Held // what the pages kept so far hold (count and bytes)
	asked int       // the page number last asked for: the answer's own is the server's say
}

type (
	pageLoaded = page.Result[*api.ProjectPage]
	fromCache  = page.Result[page.Cached[*api.ProjectPage]]
	// debounced fires after a pause in typing; only the latest one counts.
	debounced struct {
		page.Tag
		query string
	}
)

// New builds the page; arg is an initial name filter.
func New(env page.Env, arg string) page.Page {
	m := &Model{env: env, id: env.NewID(), loader: widgets.NewLoader(env.Theme), name: strings.TrimSpace(arg)}
	m.TableView = widgets.NewTableView(env.Theme, env.Keys, m.id, Columns(), 1)
	m.Table.SetRemoteFilter(true)
	m.Table.SetLoading(func() bool { return m.state.Loading() || m.loader.Active() })
	return m
}

// Close implements page.Closer: a request still in flight is abandoned.
func (m *Model) Close() { m.reqs.Stop() }

// Deactivate implements page.Activatable: a covered page needs no tick.
func (m *Model) Deactivate() { m.clock.Pause() }

// Activate implements page.Activatable.
func (m *Model) Activate() tea.Cmd { return m.clock.Resume(m.env, m.id, m.state.Timed()) }

// Shows implements page.Reloader: the list shows what is cached under its
// key (file counts and sizes, which an upload changes).
func (m *Model) Shows(key string) bool { return key == cacheKey }

// Reload implements page.Reloader: the first page again, with the filter in
// effect (the root calls it once, when the page is shown).
func (m *Model) Reload() tea.Cmd { return m.load(1) }

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title implements page.Page.
func (m *Model) Title() string { return "projects" }

// Help lists this page's keys.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	return []key.Binding{k.Enter, k.Filter, k.Refresh, k.Copy}
}

// Init shows the cached first page when there is one (read in a
// command), else loads page 1.
func (m *Model) Init() tea.Cmd {
	if m.name == "" && m.env.Cache != nil {
		tag := m.reqs.Next(m.id)
		return page.ReadCache(m.env.Cache, cacheKey, tag, func(body []byte, _ time.Time) (*api.ProjectPage, error) {
			var pg api.ProjectPage
			err := json.Unmarshal(body, &pg)
			return &pg, err
		})
	}
	return m.load(1)
}

// load asks for page n; page 1 starts over (and supersedes anything in
// flight). The unfiltered first page is cached as received.
func (m *Model) load(n int) tea.Cmd {
	tag, ctx := m.reqs.Start(m.env.Context(), m.id)
	if n == 1 && m.name == "" {
		ctx = page.KeepBody(ctx, m.env.Cache, cacheKey)
	}
	m.loading = true
	if n == 1 {
		m.loader.Reset()
		ctx = m.state.Begin(ctx) // budget and Retry-After waits are shown as such
	}
	m.asked = n
	q := api.ProjectQuery{Page: n, PerPage: perPage, Name: m.name}
	be := m.env.Backend
	return tea.Batch(m.loader.Start(), page.Fetch(ctx, tag, "page",
		func(ctx context.Context) (*api.ProjectPage, error) { return be.ProjectsPage(ctx, q) }))
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
		var pg *api.ProjectPage
		if msg.Err == nil {
			m.asked = 1
			pg, msg.Err = m.checked(msg.Value.Value)
		}
		if msg.Err != nil {
			return m, m.load(1) // nothing usable cached
		}
		cmd := m.apply(pg)
		m.state.Loaded(msg.Value.At, true)
		return m, tea.Batch(cmd, m.clock.Keep(m.env, m.id, m.state.Timed()))
	case pageLoaded:
		if !m.reqs.Current(msg.Tag) {
			return m, nil
		}
		m.loader.Done()
		m.loading = false
		if msg.Err == nil {
			msg.Value, msg.Err = m.checked(msg.Value)
		}
		if msg.Err != nil {
			m.openOnLoad = false
			m.state.Failed(msg.Err) // on the page; rows already shown stay, marked stale
			return m, tea.Batch(page.Error(fmt.Errorf("projects could not be loaded: %w", msg.Err)),
				m.clock.Keep(m.env, m.id, m.state.Timed()))
		}
		return m, m.apply(msg.Value)
	case debounced:
		if msg.Seq != m.typing || msg.query == m.name {
			return m, nil
		}
		m.name = msg.query
		return m, m.load(1)
	case page.ClockTick:
		return m, m.clock.Tick(m.env, m.id, m.state.Timed())
	case widgets.FilterResult:
		return m, m.Table.Update(msg)
	case page.ProjectDeleted:
		return m, m.drop(msg.ID)
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	}
	return m, m.loader.Update(msg)
}

// drop removes a project deleted from its own view, so going back does not
// show it; the service is not asked again (the vault budget is small).
func (m *Model) drop(id string) tea.Cmd {
	i := slices.IndexFunc(m.data.Projects, func(p api.Project) bool { return p.ID == id })
	if i < 0 {
		return nil
	}
	m.data.Projects = slices.Delete(slices.Clone(m.data.Projects), i, i+1)
	m.data.Total = max(m.data.Total-1, 0)
	return m.Table.SetRows(Rows(m.data.Projects))
}

func (m *Model) apply(pg *api.ProjectPage) tea.Cmd {
	n := int(pg.Pagination.Page)
	d := snapshot{Page: n, TotalPages: int(pg.Pagination.TotalPages), Total: int(pg.Pagination.Total)}
	var cmd tea.Cmd
	if n <= 1 {
		d.Projects = pg.Projects
		cmd = m.Table.SetRows(Rows(pg.Projects))
	} else {
		d.Projects = append(m.data.Projects, pg.Projects...)
		cmd = m.Table.AppendRows(Rows(pg.Projects))
	}
	m.data = d
	if n <= 1 {
		m.state.Loaded(m.env.Clock(), false)
		m.rowsFor = m.name
		if m.openOnLoad && len(d.Projects) > 0 {
			cmd = tea.Batch(cmd, openProject(d.Projects[0]))
		}
		m.openOnLoad = false
	}
	return tea.Batch(cmd, m.maybeMore())
}

// checked drops the projects of a page that were listed on an earlier one,
// and refuses a page that brings none or lies past the listing's own
// total (api.PageGuard), or that would take what the view keeps past its
// bounds (api.Held); paging then stops where it is.
func (m *Model) checked(pg *api.ProjectPage) (*api.ProjectPage, error) {
	n := m.asked
	if n <= 1 || m.guard == nil {
		m.guard, m.held = api.NewProjectPageGuard(), api.HeldProjects()
	}
	err := m.guard.Within(n, len(pg.Projects), pg.Pagination)
	fresh := pg.Projects
	if err == nil {
		fresh, err = api.Fresh(m.guard, n, pg.Projects, func(p *api.Project) string { return p.ID })
	}
	for i := 0; err == nil && i < len(fresh); i++ {
		err = m.held.Add(api.ProjectBytes(&fresh[i]))
	}
	if err != nil {
		m.data.TotalPages = m.data.Page // no further page is asked for
		return nil, err
	}
	c := *pg
	c.Projects = fresh
	c.Pagination.Page = api.Int(n) // a page that says it is page 1 again does not start the table over
	return &c, nil
}

// maybeMore loads the next page when the cursor is near the last row.
func (m *Model) maybeMore() tea.Cmd {
	if m.loading || m.data.Page >= m.data.TotalPages || m.Table.Cursor() < m.Table.Len()-prefetch {
		return nil
	}
	return m.load(m.data.Page + 1)
}

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	m.openOnLoad = false // any other key after enter: the user moved on
	if !m.Table.Filtering() {
		switch {
		case key.Matches(msg, k.Refresh):
			return m.load(1)
		case key.Matches(msg, k.Enter):
			if m.loading && m.rowsFor != m.name {
				m.openOnLoad = true
				return nil
			}
			if i := m.selectedIndex(); i >= 0 {
				return openProject(m.data.Projects[i])
			}
			return nil
		}
	}
	cmd := m.Table.Update(msg)
	if q := strings.TrimSpace(m.Table.Query()); q != m.name {
		// The name filter is a server request from a budget of 10 a minute:
		// it is sent on enter (or esc clearing it) at once, else only after
		// a long pause in typing; a newer one cancels the older.
		m.typing++
		if !m.Table.Filtering() {
			m.name = q
			return tea.Batch(cmd, m.load(1))
		}
		tag := page.Tag{View: m.id, Seq: m.typing}
		return tea.Batch(cmd, tea.Tick(m.env.DebounceDelay(), func(time.Time) tea.Msg { return debounced{tag, q} }))
	}
	return tea.Batch(cmd, m.maybeMore())
}

func (m *Model) selectedIndex() int {
	r, ok := m.Table.Selected()
	if !ok {
		return -1
	}
	for i := range m.data.Projects {
		if m.data.Projects[i].ID == r.ID {
			return i
		}
	}
	return -1
}

// View implements page.Page.
func (m *Model) View() string {
	th := m.env.Theme
	head := strings.Join(m.infoLines(), "\n")
	if m.state.FailedEmpty() {
		return head + "\n" + th.Error.Render(m.state.FailedView("The projects"))
	}
	return head + "\n" + m.Table.View()
}

// infoLines is the line above the table, wrapped rather than cut
// (widgets.Fit): the counts, the filter and a failure's reason stay whole;
// the title and a plain "loading" or cache age give way first.
func (m *Model) infoLines() []string {
	var parts []widgets.Part
	if !m.state.FailedEmpty() {
		parts = append(parts, widgets.Keep(fmt.Sprintf("%d of %d loaded", len(m.data.Projects), m.data.Total)))
	}
	if m.name != "" {
		parts = append(parts, widgets.Keep("name contains \""+m.name+"\""))
	}
	info := widgets.Info{Title: "Projects", Parts: parts, State: &m.state, Loader: m.loader}
	return info.Lines(m.env.Theme, m.Width, m.env.Clock())
}

// SetSize implements page.Page: the table gets what the info line leaves.
func (m *Model) SetSize(w, h int) {
	m.TableView.SetSize(w, h)
	m.fitHeader()
}

// fitHeader gives the table what the info line leaves when it wraps.
func (m *Model) fitHeader() {
	if n := len(m.infoLines()); n != m.TableView.Header && m.Height > 0 {
		m.TableView.Header = n
		m.TableView.SetSize(m.Width, m.Height)
	}
}

// openProject opens the project's page (the "project" route) with the
// record the list holds, so the page needs no request to name it.
func openProject(p api.Project) tea.Cmd { return page.OpenRecord("project", p.ID, p) }
