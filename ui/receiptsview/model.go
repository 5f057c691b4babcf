// Package receiptsview is the console's `:receipts` view (issue 43): the
// access write jobs as `vaultdeck access receipts` lists them, enter for
// one job's receipt (each change and the service's outcome, as `access
// receipts N` shows it), and U for its undo, planned, confirmed and run
// through ui/accesstask as `vaultdeck access undo N` does. It reads the
// journal (store write_jobs, through api/writejob's readers) and asks the
// service nothing until U plans an undo.
package receiptsview

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/accesstask"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Journal is what the view reads: the jobs of a kind, and one job's
// receipt (writejob.ReadReceipt's reads). *store.Store satisfies it.
type Journal interface {
	writejob.Journal
	WriteJobs(kinds ...string) ([]store.WriteJob, error)
}

// Deps is where the jobs are kept; a nil Store makes the page say so.
type Deps struct{ Store Journal }

type (
	listed = page.Result[[]store.WriteJob]
	opened = page.Result[*writejob.Receipt]
)

// Model is the receipts page.
type Model struct {
	env  page.Env
	id   page.ID
	reqs page.Requests
	one  page.Requests // the receipt's read
	widgets.TableView
	flow accesstask.Flow

	store   Journal
	jobs    []store.WriteJob
	loaded  bool
	err     error
	receipt *writejob.Receipt // the receipt open (enter); nil: the list
}

// Route returns the constructor the console registers as ":receipts".
func Route(deps Deps) func(env page.Env, arg string) page.Page {
	return func(env page.Env, arg string) page.Page {
		m := &Model{env: env, id: env.NewID(), store: deps.Store}
		m.TableView = widgets.NewTableView(env.Theme, env.Keys, m.id, Columns(), 1)
		if n, err := strconv.ParseInt(arg, 10, 64); err == nil && n > 0 {
			m.receipt = &writejob.Receipt{Job: store.WriteJob{ID: n}} // read in Init
		}
		return m
	}
}

// Check refuses a :receipts ARG that is not a job number.
func Check(arg string) error {
	if arg == "" {
		return nil
	}
	if n, err := strconv.ParseInt(arg, 10, 64); err != nil || n < 1 {
		return fmt.Errorf("%q is not an access job's number (see :receipts)", sanitize.Line(arg))
	}
	return nil
}

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Close implements page.Closer.
func (m *Model) Close() { m.reqs.Stop(); m.one.Stop(); m.flow.Close() }

// Title implements page.Page.
func (m *Model) Title() string {
	if m.receipt != nil {
		return fmt.Sprintf("receipts · job %d", m.receipt.Job.ID)
	}
	return "receipts"
}

// Help lists this page's keys.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	return []key.Binding{keys.Hint(k.Enter, "the job's receipt"), k.UndoAccess, keys.Hint(k.Back, "the list (from a receipt)"), k.Refresh}
}

// ContextKeys implements page.KeyHinter.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	if m.flow.CapturesInput() || m.Table.Filtering() {
		return widgets.TableHints(k, m.Table)
	}
	if m.receipt != nil {
		return []key.Binding{keys.Hint(k.UndoAccess, "undo this job"), keys.Hint(k.Back, "the list"), k.Refresh}
	}
	var out []key.Binding
	if m.Table.Len() > 0 {
		out = append(out, keys.Hint(k.Enter, "receipt"), keys.Hint(k.UndoAccess, "undo"))
	}
	return append(append(out, k.Refresh), widgets.TableHints(k, m.Table)...)
}

// CapturesInput implements page.InputCapturer: the filter, or the undo's
// typed confirmation.
func (m *Model) CapturesInput() bool { return m.flow.CapturesInput() || m.TableView.CapturesInput() }

// WantsEsc: esc closes a receipt before it leaves the page.
func (m *Model) WantsEsc() bool {
	return m.flow.CapturesInput() || m.receipt != nil || m.TableView.WantsEsc()
}

// Init reads the jobs, and the receipt the route named.
func (m *Model) Init() tea.Cmd {
	if m.receipt != nil {
		return tea.Batch(m.load(), m.open(m.receipt.Job.ID))
	}
	return m.load()
}

// load reads the access jobs from the journal, in a command.
func (m *Model) load() tea.Cmd {
	tag, ctx := m.reqs.Start(m.env.Context(), m.id)
	st := m.store
	return page.Fetch(ctx, tag, "jobs", func(context.Context) ([]store.WriteJob, error) {
		if st == nil {
			return nil, errors.New("the receipts need the local journal, which this session does not have")
		}
		return st.WriteJobs(change.KindName)
	})
}

// open reads job id's receipt, as `vaultdeck access receipts N` does.
func (m *Model) open(id int64) tea.Cmd {
	tag, ctx := m.one.Start(m.env.Context(), m.id)
	st := m.store
	return page.Fetch(ctx, tag, "receipt", func(context.Context) (*writejob.Receipt, error) {
		if st == nil {
			return nil, errors.New("the receipts need the local journal, which this session does not have")
		}
		rc, err := writejob.ReadReceipt(st, id)
		if err == nil && rc.Job.Kind != change.KindName {
			err = fmt.Errorf("write job %d is a %s job, not an access job", rc.Job.ID, rc.Job.Kind)
		}
		return rc, err
	})
}

// Update implements page.Page.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	if handled, cmd := m.flow.Update(m.env, m.id, msg); handled {
		return m, cmd
	}
	switch msg := msg.(type) {
	case listed:
		if !m.reqs.Current(msg.Tag) {
			return m, nil
		}
		m.loaded, m.err = true, msg.Err
		if msg.Err != nil {
			return m, page.Error(fmt.Errorf("the access jobs could not be read: %w", msg.Err))
		}
		m.jobs = msg.Value
		return m, m.Table.SetRows(Rows(m.jobs))
	case opened:
		if !m.one.Current(msg.Tag) {
			return m, nil
		}
		if msg.Err != nil {
			m.receipt = nil
			return m, page.Error(fmt.Errorf("the receipt could not be read: %w", msg.Err))
		}
		m.receipt = msg.Value
		return m, nil
	case accesstask.Done:
		if msg.Origin != m.id {
			return m, nil
		}
		// the undo is a job of its own: the list gains it, the receipt
		// open gains "undone by"
		cmds := []tea.Cmd{m.load()}
		if m.receipt != nil {
			cmds = append(cmds, m.open(m.receipt.Job.ID))
		}
		return m, tea.Batch(cmds...)
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	case widgets.FilterResult:
		return m, m.Table.Update(msg)
	}
	return m, nil
}

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	if m.Table.Filtering() {
		return m.Table.Update(msg)
	}
	switch {
	case key.Matches(msg, k.Back) && m.receipt != nil:
		m.receipt = nil
		m.one.Stop()
		return nil
	case key.Matches(msg, k.Enter) && m.receipt == nil:
		if id, ok := m.selected(); ok {
			return m.open(id)
		}
		return nil
	case key.Matches(msg, k.UndoAccess):
		id, ok := m.selected()
		if m.receipt != nil {
			id, ok = m.receipt.Job.ID, true
		}
		if !ok {
			return page.Status("no access job to undo")
		}
		return m.flow.AskUndo(m.env, m.id, id)
	case key.Matches(msg, k.Refresh):
		if m.receipt != nil {
			return tea.Batch(m.load(), m.open(m.receipt.Job.ID))
		}
		return m.load()
	}
	if m.receipt != nil {
		return nil
	}
	return m.Table.Update(msg)
}

// selected is the job of the selected row.
func (m *Model) selected() (int64, bool) {
	r, ok := m.Table.Selected()
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(r.ID, 10, 64)
	return id, err == nil
}
