// Package audit is the "Audit" view: the workspace audit log from its
// earliest entry onward, loaded a page at a time as the user scrolls, with
// a type filter and a detail pane.
package audit

import (
	"context"
	"errors"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// maxAutoPages bounds how many pages load in a row without a key press. A
// rare type filtered client-side can add nothing for page after page; the
// view then pauses instead of walking the whole log on the audit budget.
const maxAutoPages = 5

// Model is the audit page.
type Model struct {
	env               page.Env
	id                page.ID
	req               page.Requests // a new type filter makes older responses stale
	pager             *pager
	byID              map[string]int // entry ID -> index in pager.entries, for the detail pane
	types             map[api.AuditType]struct{}
	widgets.TableView // table, size, filter capture, esc, selected and marked IDs
	loader            *widgets.Loader

	lastErr   error
	autoPages int  // pages loaded since the last key press
	paused    bool // auto-loading stopped at maxAutoPages

	detail     bool
	detailPane *widgets.Pane // the open entry, whole, wrapped and scrolling

	typing    bool
	typeInput widgets.Input
}

// New returns the audit view; arg, when set, is an initial type filter
// (e.g. ":audit auth:login").
func New(env page.Env, arg string) page.Page {
	m := &Model{
		env:    env,
		id:     env.NewID(),
		types:  map[api.AuditType]struct{}{},
		loader: widgets.NewLoader(env.Theme),
	}
	m.TableView = widgets.NewTableView(env.Theme, env.Keys, m.id, columns(), headerLines)
	m.typeInput = widgets.Input{Prompt: "log type (empty: all): ", PromptStyle: env.Theme.Input, CursorStyle: env.Theme.TextCursor, CharLimit: 200,
		Placeholder: "e.g. auth:login (empty: all types)"}
	m.reset(sanitizeType(arg))
	return m
}

func columns() []widgets.Column {
	return []widgets.Column{
		colTime: {Title: columnTitles[colTime], Width: len(timeLayout)},
		colType: {Title: columnTitles[colType], Width: 14, Grow: 2},
		colUser: {Title: columnTitles[colUser], Width: 14, Grow: 2},
		colIP:   {Title: columnTitles[colIP], Width: 15},
	}
}

// reset starts over with a type filter: new pager, empty table, and a new
// request sequence so responses for the old filter are dropped.
func (m *Model) reset(logType string) {
	m.pager = newPager(logType)
	m.byID = map[string]int{}
	m.req.Next(m.id)
	m.loader.Reset()
	m.lastErr, m.autoPages, m.paused, m.detail = nil, 0, false, false
	m.Table.SetRows(nil)
}

// Init loads the earliest entry.
func (m *Model) Init() tea.Cmd { return m.maybeLoad() }

// Close implements page.Closer: a request still in flight is abandoned.
func (m *Model) Close() { m.req.Stop() }

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title is the breadcrumb segment.
func (m *Model) Title() string { return "audit" }

// SetSize gives the view its area: one header line above the table.
func (m *Model) SetSize(w, h int) {
	m.TableView.SetSize(w, h)
	if m.detailPane != nil {
		m.detailPane.SetSize(w, max(h-headerLines, 3))
	}
	m.typeInput.Width = max(w-26, 1)
}

// CapturesInput keeps typed keys in the type input or the table filter.
func (m *Model) CapturesInput() bool { return m.typing || m.TableView.CapturesInput() }

// WantsEsc: esc closes the detail pane, the type input or the filter first.
func (m *Model) WantsEsc() bool { return m.detail || m.typing || m.TableView.WantsEsc() }

// Help lists the view's own bindings.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	enter := k.Enter
	enter.SetHelp(enter.Help().Key, "entry details")
	return append(k.Navigation(), enter, k.TypeCycle, k.TypeFilter)
}

// Update routes responses, keys and the table's filter results.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case page.Result[*api.AuditEntry]:
		return m, m.gotEarliest(msg)
	case page.Result[[]api.AuditEntry]:
		return m, m.gotPage(msg)
	case tea.KeyMsg:
		return m, m.key(msg)
	case widgets.FilterResult:
		return m, m.Table.Update(msg)
	}
	return m, m.loader.Update(msg)
}

// maybeLoad fetches the next page if the cursor is near the end of what is
// loaded. The table may be sorted or filtered, so "near the end" is judged
// by rows left below the cursor, mapped onto the loaded entries.
func (m *Model) maybeLoad() tea.Cmd {
	if m.paused {
		return nil
	}
	below := m.Table.Len() - 1 - m.Table.Cursor()
	req, ok := m.pager.next(len(m.pager.entries) - 1 - below)
	if !ok {
		return nil
	}
	m.pager.begin()
	tag, ctx := m.req.Start(m.env.Context(), m.id)
	b := m.env.Backend
	var fetch tea.Cmd
	if req.Earliest {
		fetch = page.Fetch(ctx, tag, "earliest", func(ctx context.Context) (*api.AuditEntry, error) {
			return b.AuditEarliest(ctx, req.LogType)
		})
	} else {
		fetch = page.Fetch(ctx, tag, "page", func(ctx context.Context) ([]api.AuditEntry, error) {
			return b.AuditAfter(ctx, req.From, pageSize)
		})
	}
	return tea.Batch(m.loader.Start(), fetch)
}

func (m *Model) gotEarliest(msg page.Result[*api.AuditEntry]) tea.Cmd {
	if msg.View != m.id || !m.req.Current(msg.Tag) {
		return nil // a response for a filter the user has since changed
	}
	m.loader.Done()
	switch {
	case errors.Is(msg.Err, api.KindNotFound):
		// 404 from earliest means the log (of this type) is empty: a state
		// to show, not an error.
		m.pager.gotEarliest(nil)
		m.lastErr = nil
		return nil
	case msg.Err != nil:
		return m.failed(msg.Err)
	}
	m.lastErr = nil
	m.pager.gotEarliest(msg.Value)
	return m.appended(1)
}

func (m *Model) gotPage(msg page.Result[[]api.AuditEntry]) tea.Cmd {
	if msg.View != m.id || !m.req.Current(msg.Tag) {
		return nil
	}
	m.loader.Done()
	if msg.Err != nil {
		return m.failed(msg.Err)
	}
	m.lastErr = nil
	return m.appended(m.pager.gotPage(msg.Value))
}

// failed keeps what was loaded on screen and reports the error; paging
// resumes on the next scroll.
func (m *Model) failed(err error) tea.Cmd {
	m.pager.fail()
	m.lastErr = err
	return page.Error(err)
}

// appended adds the last n pager entries to the table and, if the cursor is
// still near the end (or a filtered page added little), loads on.
func (m *Model) appended(n int) tea.Cmd {
	for t := range m.pager.types {
		m.types[t] = struct{}{}
	}
	all := m.pager.entries
	rows := make([]widgets.Row, 0, n)
	for i := len(all) - n; i < len(all); i++ {
		m.byID[all[i].ID] = i
		cells := buildRow(&all[i])
		rows = append(rows, widgets.Row{ID: all[i].ID, Cells: cells[:]})
	}
	cmd := m.Table.AppendRows(rows)
	m.autoPages++
	if m.autoPages >= maxAutoPages && !m.pager.done {
		m.paused = true
		return cmd
	}
	return tea.Batch(cmd, m.maybeLoad())
}
