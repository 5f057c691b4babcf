// Package mattersview is the console's `:matters` view: open a CSV/TSV file of
// client/matter pairs, preview what a deletion would do, confirm by typing
// the number of pairs, watch it run as a root-owned task, browse every
// pair's outcome (filtered by outcome and by error code), open past
// receipts and restore from one. All reading, checking and sending is
// the matter job's (api/matters); this package only shows and asks.
package mattersview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Deps is what the view needs beyond page.Env: the local database that
// keeps receipts, and the profile name written on them.
type Deps struct {
	Store   *store.Store
	Profile string
}

// mode is what the view shows.
type mode uint8

const (
	modeList    mode = iota // past receipts
	modePath                // typing a file path
	modePreview             // a file read and checked, not sent
	modeRun                 // a run in progress
	modeReceipt             // one receipt's outcomes
)

// Model is the matters page.
type Model struct {
	env  page.Env
	deps Deps
	id   page.ID
	reqs page.Requests

	mode mode

	receipts *widgets.Table // modeList
	list     []store.Receipt

	path    *widgets.Input // modePath
	matches []string       // completion candidates shown under the input
	pathErr string

	fileName string // modePreview
	file     *matters.File
	plan     *matters.Plan
	refused  *widgets.Table
	rejected []matters.Outcome // the refused pairs, the refused table's rows
	// earlier: this machine's earlier deletions of the same file whose
	// pairs a restore brought back (matters.Earlier); earlierErr when the
	// receipts could not be read, which is said, not taken for none.
	earlier    []string
	earlierErr error

	confirm *widgets.Confirm
	pending func() tea.Cmd // what a confirmed dialog starts

	run *runState // modeRun

	receipt    store.Receipt // modeReceipt
	items      []store.ReceiptItem
	audit      string         // the receipt's audit evidence line
	auditShort bool           // it asks for an audit sync
	matched    int            // items passing the filters (items holds at most maxItems)
	codes      map[string]int // the receipt's error codes and their counts
	maxItems   int
	outcomes   *widgets.Table
	result     string // outcome filter ("" = all)
	code       string // error-code filter ("" = all)
	opening    int64  // a receipt Init opens (a saved view's, FromQuery)

	width, height int
}

// Route returns the constructor the console registers as ":matters". An
// argument is a file to open straight into the preview.
func Route(deps Deps) func(env page.Env, arg string) page.Page {
	return func(env page.Env, arg string) page.Page { return New(env, deps, arg) }
}

// New builds the page.
func New(env page.Env, deps Deps, arg string) *Model {
	m := &Model{env: env, deps: deps, id: env.NewID(), maxItems: maxItems}
	m.receipts = widgets.NewTable(env.Theme, env.Keys, m.id, receiptColumns())
	m.refused = widgets.NewTable(env.Theme, env.Keys, m.id, outcomeColumns())
	m.outcomes = widgets.NewTable(env.Theme, env.Keys, m.id, outcomeColumns())
	if _, err := m.service(); arg != "" && err == nil {
		m.openPath(arg)
	}
	return m
}

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title implements page.Page.
func (m *Model) Title() string { return "matters" }

// Help lists the keys of the current mode.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	if !k.MattersAvailable() {
		return nil
	}
	switch m.mode {
	case modeList:
		return []key.Binding{k.OpenFile, rename(k.Enter, "open receipt"), k.Refresh}
	case modePath:
		return []key.Binding{rename(k.NextTab, "complete path"), rename(k.Enter, "read the file"), k.Back}
	case modePreview:
		return []key.Binding{k.RunDelete, rename(k.Enter, "whole detail"), k.OpenFile, k.Back}
	case modeRun:
		return []key.Binding{k.CancelRun}
	}
	return []key.Binding{rename(k.Enter, "whole detail"), rename(k.StatusFilter, "cycle outcome filter"), rename(k.TypeCycle, "cycle error-code filter"), k.Restore, k.Back}
}

// rename gives a shared binding this view's wording in help.
func rename(b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
}

// CapturesInput is true while a path, a confirmation or a table filter has
// the keyboard.
func (m *Model) CapturesInput() bool {
	return m.confirm != nil || m.mode == modePath || m.table().Filtering()
}

// WantsEsc is true everywhere but the receipt list and a run: esc steps
// back within the view first. A run has nothing to step back to: esc
// leaves the view, as its screen says, and the run goes on (c cancels).
func (m *Model) WantsEsc() bool {
	return m.confirm != nil || m.mode != modeList && m.mode != modeRun || m.table().WantsEsc()
}

func (m *Model) table() *widgets.Table {
	switch m.mode {
	case modePreview:
		return m.refused
	case modeReceipt:
		return m.outcomes
	}
	return m.receipts
}

// SetSize implements page.Page; the top lines go to the mode's summary.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

func (m *Model) layout() {
	head := m.headLines()
	for _, t := range []*widgets.Table{m.receipts, m.refused, m.outcomes} {
		t.SetSize(m.width, max(m.height-head, 3))
	}
}

// Init loads the receipt list, or reads the file given as argument.
func (m *Model) Init() tea.Cmd {
	if !m.env.Keys.MattersAvailable() {
		return nil
	}
	if m.mode == modePath && m.path.Value() != "" {
		return m.readFile()
	}
	load := m.loadReceipts()
	if m.opening != 0 { // the list is read again when esc leaves the receipt
		load = m.loadReceipt(m.opening)
	}
	if _, err := m.service(); err != nil {
		return tea.Batch(load, page.Error(err))
	}
	return load
}

// Update implements page.Page.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if !m.env.Keys.MattersAvailable() {
			return m, nil
		}
		return m, m.handleKey(msg)
	case receiptsLoaded:
		return m, m.receiptsArrived(msg)
	case completed:
		m.completeArrived(msg)
		return m, nil
	case fileRead:
		return m, m.fileArrived(msg)
	case receiptLoaded:
		return m, m.receiptArrived(msg)
	case restorePlanned:
		return m, m.restorePlanArrived(msg)
	case page.TaskStarted:
		return m, m.tick()
	case tickMsg:
		if msg.view == m.id && m.mode == modeRun && !m.run.finished() {
			return m, m.tick()
		}
		return m, nil
	case page.TaskDone:
		return m, m.taskDone(msg)
	case widgets.FilterResult:
		return m, m.table().Update(msg)
	}
	return m, nil
}

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	if m.confirm != nil {
		switch m.confirm.Update(msg) {
		case widgets.Cancelled:
			m.confirm, m.pending = nil, nil
			return page.Status("nothing was sent")
		case widgets.Confirmed:
			start := m.pending
			m.confirm, m.pending = nil, nil
			return start()
		}
		return nil
	}
	if m.mode == modePath {
		return m.pathKey(msg)
	}
	if m.table().Filtering() {
		return m.table().Update(msg)
	}
	switch m.mode {
	case modeRun:
		if key.Matches(msg, k.CancelRun) {
			return m.cancelRun()
		}
		return nil
	case modeList:
		switch {
		case key.Matches(msg, k.OpenFile):
			if _, err := m.service(); err != nil {
				return page.Error(err)
			}
			m.openPath("")
			return nil
		case key.Matches(msg, k.Enter):
			if r, ok := m.receipts.Selected(); ok {
				return m.openReceipt(parseID(r.ID))
			}
			return nil
		case key.Matches(msg, k.Refresh):
			return m.loadReceipts()
		}
	case modePreview:
		switch {
		case key.Matches(msg, k.RunDelete):
			return m.askDelete()
		case key.Matches(msg, k.Enter):
			return m.showSelected(m.refused)
		case key.Matches(msg, k.OpenFile):
			m.openPath(m.pathValue())
			return nil
		case key.Matches(msg, k.Back) && !m.refused.WantsEsc():
			return m.backToList()
		}
	case modeReceipt:
		switch {
		case key.Matches(msg, k.Enter):
			return m.showSelected(m.outcomes)
		case key.Matches(msg, k.StatusFilter):
			m.result = nextOf(sortedKeys(m.receipt.Counts), m.result)
			return m.loadReceipt(m.receipt.ID)
		case key.Matches(msg, k.TypeCycle):
			m.code = nextOf(sortedKeys(m.codes), m.code)
			return m.loadReceipt(m.receipt.ID)
		case key.Matches(msg, k.Restore):
			return m.askRestore()
		case key.Matches(msg, k.Back) && !m.outcomes.WantsEsc():
			return m.backToList()
		}
	}
	return m.table().Update(msg)
}

// showSelected puts the selected outcome's whole detail in the status
// line: the table cuts long details.
func (m *Model) showSelected(t *widgets.Table) tea.Cmd {
	r, ok := t.Selected()
	if !ok {
		return nil
	}
	c := r.Cells
	var parts []string // the result, and the code and detail when there are any
	for _, s := range c[3:6] {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return page.Status(fmt.Sprintf("line %s: %s", c[0], strings.Join(parts, " ")))
}

func (m *Model) backToList() tea.Cmd {
	m.mode = modeList
	m.layout()
	return m.loadReceipts()
}
