package projectview

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/ui/accesstask"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

const (
	tabUsers = iota
	tabFiles
	fileLimit = 100
	prefetch  = 20
)

// Model is the project page.
type Model struct {
	env  page.Env
	id   page.ID
	proj api.Project // ID always; the rest when opened from the list
	tab  int

	widgets.TableView // a table per tab: size, filter capture, esc, selected and marked IDs

	loaded [2]bool // each tab loads once, when first shown
	states [2]page.LoadState
	loader *widgets.Loader
	users  page.Requests
	files  page.Requests
	lookup page.Requests // the project of an ID (resolve.go)
	meta   page.Requests // its use of its limits (usage.go)
	usage  *api.ProjectMetadata

	resolving  bool   // looking up the name and size of a project opened by ID
	unresolved string // why the ID could not be resolved; the page offers nothing
	// uncounted: opened knowing the name only (page.ProjectName); the
	// head says no file count until the record is looked up
	uncounted bool

	fileList []api.ProjectFile
	userList []api.ProjectUser // the users tab's source, row i user i
	complete bool              // fileList is the whole unfiltered listing
	cursor   string            // next page of files
	hasMore  bool
	// guard checks that each page of files is progress (no page or cursor
	// again: api.PageGuard); pages counts them. Both start over with the
	// first page, and are used by one fetch at a time (off the event loop).
	guard     *api.PageGuard
	held      *api.Held // what the pages kept so far hold (count and bytes)
	pages     int
	loading   bool
	statusIdx int
	wholeIDs  bool // files tab: `i` shows IDs whole

	confirm  *widgets.Confirm
	access   accesstask.Flow   // the Users tab's = and X: a plan, its confirmation, the access job
	delFiles []deletefile.File // the files the confirmation is for; nil: it is for the project
	outcome  string            // what the service said to a deletion
	failed   bool
	deleting bool // the deletion task runs (owned by the root)
	deleted  bool
}

type (
	usersLoaded = page.Result[[]api.ProjectUser]
	filesLoaded = page.Result[filePage]
)

// New is the route constructor: arg is a project ID (CheckID refuses
// anything else before the page opens); Init looks up its name and size.
func New(env page.Env, arg string) page.Page {
	m := FromRecord(env, api.Project{ID: strings.TrimSpace(arg)}).(*Model)
	m.resolving = true
	return m
}

// FromRecord opens a project known from the list (name, counts, creator).
func FromRecord(env page.Env, p api.Project) page.Page {
	m := &Model{env: env, id: env.NewID(), proj: p, loader: widgets.NewLoader(env.Theme)}
	m.TableView = widgets.NewTabbedTableView(env.Theme, env.Keys, m.id, headerLines, UserColumns(), FileColumns())
	for i, t := range m.Tabs {
		t.SetLoading(func() bool { return m.states[i].Loading() || (m.tab == i && m.loader.Active()) })
	}
	return m
}

// Record is the route's FromRecord: a page.Open from the projects list
// carries the project's record; anything else is not one (nil).
func Record(env page.Env, record any) page.Page {
	switch r := record.(type) {
	case api.Project:
		return FromRecord(env, r)
	case page.ProjectName:
		// the name is shown at once; the count is looked up (Init)
		m := FromRecord(env, api.Project{ID: r.ID, Name: r.Name}).(*Model)
		m.uncounted = true
		return m
	}
	return nil
}

// Close implements page.Closer: requests still in flight are abandoned.
func (m *Model) Close() { m.users.Stop(); m.files.Stop(); m.lookup.Stop(); m.meta.Stop() }

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title is the project's name (sanitized), or its ID.
func (m *Model) Title() string {
	if m.proj.Name != "" {
		return sanitize.Line(m.proj.Name)
	}
	return sanitize.Line(m.proj.ID)
}

// Help lists this page's keys; Delete is absent when read-only.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	return []key.Binding{k.NextTab, k.PrevTab, k.StatusFilter, k.SendToFiles, k.Mark, k.ToggleIDs, k.Person, k.Refresh, k.Copy, k.Upload, k.DeleteFiles, k.ChangeLevel, k.GrantAccess, k.Delete}
}

// headerLines: a header line and the tab bar above the table.
const headerLines = 2

// CapturesInput is true while the dialog or a filter has the keyboard.
func (m *Model) CapturesInput() bool {
	return m.confirm != nil || m.access.CapturesInput() || m.TableView.CapturesInput()
}

// Init loads the first tab, after looking the project up when only its ID
// is known.
func (m *Model) Init() tea.Cmd {
	if m.resolving {
		return tea.Batch(m.resolve(), m.loadMeta())
	}
	if m.uncounted {
		return m.Reload() // the users, the record quietly, the limits
	}
	return tea.Batch(m.show(tabUsers), m.loadMeta())
}

func (m *Model) show(tab int) tea.Cmd {
	m.tab = tab
	m.ShowTab(tab)
	if m.loaded[tab] {
		return nil
	}
	m.loaded[tab] = true
	if tab == tabUsers {
		return m.loadUsers()
	}
	return m.loadFiles("")
}

func (m *Model) loadUsers() tea.Cmd {
	tag, ctx := m.users.Start(m.env.Context(), m.id)
	ctx = m.states[tabUsers].Begin(ctx)
	be, id := m.env.Backend, m.proj.ID
	return tea.Batch(m.loader.Start(), page.Fetch(ctx, tag, "users",
		func(ctx context.Context) ([]api.ProjectUser, error) {
			users, _, err := be.ProjectUsers(id).Collect(ctx)
			return users, err
		}))
}

// loadFiles asks for a page of files; an empty cursor starts over.
func (m *Model) loadFiles(cursor string) tea.Cmd {
	tag, ctx := m.files.Start(m.env.Context(), m.id)
	if cursor == "" {
		ctx = m.states[tabFiles].Begin(ctx)
	}
	m.loading = true
	q := api.FileQuery{Cursor: cursor, Limit: fileLimit}
	if s := Statuses()[m.statusIdx]; s != "" {
		q.Statuses = []string{s}
	}
	be, id := m.env.Backend, m.proj.ID
	kind := "more"
	if cursor == "" || m.guard == nil {
		kind, m.guard, m.held, m.pages = "first", api.NewFilePageGuard(), api.HeldFiles(), 0
	}
	m.pages++
	g, held, n := m.guard, m.held, m.pages
	return tea.Batch(m.loader.Start(), page.Fetch(ctx, tag, kind,
		func(ctx context.Context) (filePage, error) {
			fp, err := be.ProjectFilesPage(ctx, id, q)
			if err == nil {
				fp, err = guarded(g, held, n, fp)
			}
			if err != nil {
				return filePage{}, err
			}
			// rows and their haystacks are built here, off the event loop
			return filePage{FilePage: fp, rows: widgets.Prepare(FileRows(fp.Files))}, nil
		}))
}

// guarded keeps the files of a page not listed before, and refuses a page
// that brings none or hands out a cursor again (api.PageGuard), or that
// would take what the tab keeps past its bounds (api.Held).
func guarded(g *api.PageGuard, held *api.Held, n int, fp *api.FilePage) (*api.FilePage, error) {
	fresh, err := api.Fresh(g, n, fp.Files, func(f *api.ProjectFile) string { return f.ID })
	for i := 0; err == nil && i < len(fresh); i++ {
		err = held.Add(api.FileBytes(&fresh[i]))
	}
	if err == nil && fp.Pagination.HasMore && fp.Pagination.NextCursor != nil && *fp.Pagination.NextCursor != "" {
		err = g.Cursor(n, *fp.Pagination.NextCursor)
	}
	if err != nil {
		return nil, err
	}
	c := *fp
	c.Files = fresh
	return &c, nil
}

// filePage is a page of files with its table rows made ready.
type filePage struct {
	*api.FilePage
	rows widgets.Prepared
}

// Update implements page.Page.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	p, cmd := m.update(msg)
	m.fitHeader()
	return p, cmd
}

func (m *Model) update(msg tea.Msg) (page.Page, tea.Cmd) {
	if handled, cmd := m.access.Update(m.env, m.id, msg); handled {
		return m, cmd
	}
	switch msg := msg.(type) {
	case usersLoaded:
		if !m.users.Current(msg.Tag) {
			return m, nil
		}
		m.loader.Done()
		if msg.Err != nil {
			m.states[tabUsers].Failed(msg.Err)
			return m, page.Error(fmt.Errorf("the users of this project could not be loaded: %w", msg.Err))
		}
		m.states[tabUsers].Loaded(m.env.Clock(), false)
		m.userList = msg.Value
		return m, m.Tabs[tabUsers].SetRows(UserRows(msg.Value, m.proj.CreatorEmail))
	case filesLoaded:
		return m, m.filesArrived(msg)
	case metaLoaded:
		m.metaArrived(msg)
		return m, nil
	case resolved:
		return m, m.resolvedProject(msg)
	case page.TaskDone:
		m.taskDone(msg)
		return m, nil
	case accesstask.Done:
		if msg.Origin == m.id { // the Users tab shows what the job changed
			m.loaded[tabUsers] = false
			return m, m.show(tabUsers)
		}
		return m, nil
	case page.ProjectInBin:
		return m, m.inBin(msg)
	case widgets.FilterResult:
		for _, t := range m.Tabs {
			t.Update(msg) // each table drops results that are not its own query
		}
		return m, nil
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	}
	return m, m.loader.Update(msg)
}

func (m *Model) filesArrived(msg filesLoaded) tea.Cmd {
	if !m.files.Current(msg.Tag) {
		return nil
	}
	m.loader.Done()
	m.loading = false
	if msg.Err != nil {
		m.states[tabFiles].Failed(msg.Err)
		// no further page on scrolling: a listing that repeats itself
		// would be asked again and again (r starts over)
		m.hasMore = false
		return page.Error(fmt.Errorf("the files of this project could not be loaded: %w", msg.Err))
	}
	m.states[tabFiles].Loaded(m.env.Clock(), false)
	fp := msg.Value
	m.hasMore, m.cursor = fp.Pagination.HasMore, ""
	if fp.Pagination.NextCursor != nil {
		m.cursor = *fp.Pagination.NextCursor
	}
	if m.cursor == "" {
		m.hasMore = false // a "more" without a cursor cannot be followed
	}
	t := m.Tabs[tabFiles]
	if msg.Kind == "first" {
		m.fileList = fp.Files
		m.complete = false
	} else {
		m.fileList = append(m.fileList, fp.Files...)
	}
	// The whole unfiltered listing is here: from now on the status filter
	// is applied locally and spends no vault budget.
	m.complete = m.statusIdx == 0 && !m.hasMore
	if msg.Kind == "first" {
		return t.SetPrepared(fp.rows)
	}
	return t.AppendPrepared(fp.rows)
}

// filterFiles shows the files of the selected status: from the complete
// listing when it is loaded, else by asking the service.
func (m *Model) filterFiles() tea.Cmd {
	if !m.complete {
		return m.loadFiles("")
	}
	want := Statuses()[m.statusIdx]
	files := m.fileList
	if want != "" {
		files = nil
		for _, f := range m.fileList {
			if strings.EqualFold(string(f.ProcessingStatus), want) {
				files = append(files, f)
			}
		}
	}
	return m.Tabs[tabFiles].SetRows(FileRows(files))
}
