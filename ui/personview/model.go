// Package personview is the console's `:person EMAIL` view: one person,
// whole (api/person's report): what they can reach, created, deleted and
// did, each part with its age. Opening it reads local data only (the
// snapshot, the cache, the mirror) in a command: no request. `r` reads
// again and asks the service for the parts nothing local covers (the
// fewest requests, within the budget). Any row that names a person
// elsewhere opens it with P (ui/keys.Person); enter on the activity part
// opens the audit log filtered to them.
package personview

import (
	"context"
	"errors"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/accesstask"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Parts, in the order shown; tab moves between them.
const (
	partReach = iota
	partCreated
	partDeleted
	partActivity
	nParts
)

var partNames = [nParts]string{"reach", "created", "deleted", "activity"}

// Deps is where the local data lives: the profile's database (snapshots,
// response cache, audit mirror) and the profile it is kept under.
type Deps struct {
	Store   *store.Store
	Profile string
}

// Route returns the constructor the console registers as ":person".
func Route(deps Deps) func(env page.Env, arg string) page.Page {
	return func(env page.Env, arg string) page.Page { return New(env, deps, arg) }
}

// CheckArg refuses a route argument that is not an address.
func CheckArg(arg string) error {
	if a := strings.TrimSpace(arg); a == "" || !strings.Contains(a, "@") || strings.ContainsAny(a, " \t") {
		return errors.New("give one e-mail address: :person EMAIL")
	}
	return nil
}

type loaded = page.Result[*person.Report]

// Model is the person page.
type Model struct {
	env   page.Env
	id    page.ID
	reqs  page.Requests
	deps  Deps
	email string

	rep     *person.Report
	err     error
	loading bool
	filling bool            // the read asks the service for what is missing
	part    int             // the part tab and enter act on
	row     int             // the selected reach row (j/k move it while reach is the part)
	marked  map[string]bool // reach rows marked (x), by project ID, for X
	access  accesstask.Flow // X: the removal's plan, confirmation and run
	top     int             // the first body line shown
	w, h    int
}

// New builds the page for email.
func New(env page.Env, deps Deps, email string) *Model {
	return &Model{env: env, id: env.NewID(), deps: deps, email: strings.TrimSpace(email)}
}

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Close implements page.Closer.
func (m *Model) Close() { m.reqs.Stop(); m.access.Close() }

// CapturesInput implements page.InputCapturer: the removal's typed
// confirmation takes every key.
func (m *Model) CapturesInput() bool { return m.access.CapturesInput() }

// Title implements page.Page.
func (m *Model) Title() string { return "person · " + sanitize.Line(m.email) }

// Help lists this page's keys.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	return []key.Binding{keys.Hint(k.NextTab, "next part"), keys.Hint(k.Enter, "reach: open the project; activity: the audit log of this person"),
		keys.Hint(k.Mark, "reach: mark a row"), keys.Hint(k.RemoveAccess, "reach: remove the marked (or selected) direct shares: plan, confirm, run"),
		keys.Hint(k.Refresh, "read again; ask the service for missing parts"), k.Down, k.Up}
}

// ContextKeys implements page.KeyHinter.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	out := []key.Binding{keys.Hint(k.NextTab, "next part")}
	switch {
	case m.part == partActivity:
		out = append(out, keys.Hint(k.Enter, "audit log of this person"))
	case m.onReach():
		out = append(out, keys.Hint(k.Enter, "open the project"), keys.Hint(k.Mark, "mark"))
		if k.RemoveAccess.Enabled() {
			out = append(out, keys.Hint(k.RemoveAccess, "remove marked shares"))
		}
		out = append(out, keys.Hint(k.Down, "next row"))
	}
	hint := "read again"
	if m.rep != nil && m.fillable() {
		hint = "fill missing parts"
	}
	return append(out, keys.Hint(k.Refresh, hint), keys.Hint(k.Down, "scroll"))
}

// fillable says a part is missing that a request can fill.
func (m *Model) fillable() bool {
	for _, s := range m.rep.Missing() {
		if s.Fill != "" {
			return true
		}
	}
	return false
}

// Init reads the local data: no request.
func (m *Model) Init() tea.Cmd { return m.load(false) }

// SetSize implements page.Page.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// load reads the report in a command; fill also asks the service for the
// parts nothing local covers.
func (m *Model) load(fill bool) tea.Cmd {
	tag, ctx := m.reqs.Start(m.env.Context(), m.id)
	m.loading, m.filling = true, fill
	deps, email, be, now := m.deps, m.email, m.env.Backend, m.env.Clock
	var ml person.MatterLister
	if m.env.Jobs != nil && m.env.Jobs.Matters != nil {
		ml = m.env.Jobs.Matters
	}
	return page.Fetch(ctx, tag, "report", func(ctx context.Context) (*person.Report, error) {
		if deps.Store == nil {
			return nil, errors.New("the person view needs the local database, which this session does not have")
		}
		in := person.Local{Snapshots: deps.Store, Profile: deps.Profile, Mirror: deps.Store,
			Cache: person.StoreCache{Store: deps.Store, Profile: deps.Profile}}
		if be != nil {
			switch log, err := audit.MirrorLog(ctx, deps.Store, be); {
			case errors.Is(err, audit.ErrNoMirror):
			case err != nil:
				return nil, err
			default:
				in.Log = log
			}
		}
		rep, err := person.Read(ctx, in, email, now(), person.Options{})
		if err != nil {
			return nil, err
		}
		if fill && be != nil && !rep.LikelyTypo() {
			if err := person.Fill(ctx, be, ml, in, rep, now, nil); err != nil {
				return rep, err
			}
		}
		return rep, rep.Unknown()
	})
}

// Update implements page.Page.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	if handled, cmd := m.access.Update(m.env, m.id, msg); handled {
		return m, cmd
	}
	if accesstask.Ran(msg, m.id) {
		m.marked = nil
	}
	switch msg := msg.(type) {
	case loaded:
		if !m.reqs.Current(msg.Tag) {
			return m, nil
		}
		m.loading = false
		if msg.Value != nil {
			m.rep = msg.Value
		}
		m.err = msg.Err
		if msg.Err != nil {
			return m, page.Error(msg.Err)
		}
		if m.filling && msg.Value != nil {
			return m, page.Status("the missing parts took " + plural.Count(msg.Value.Requests, "request"))
		}
		return m, nil
	case page.TaskDone:
		if msg.Err == nil && m.rep != nil && m.choreOf(page.Chore(msg.Name)) {
			return m, m.load(false) // the crawl or sync a missing part asked for ended: read it anew
		}
	case tea.KeyMsg:
		return m, m.handleKey(msg)
	}
	return m, nil
}

// Chore implements page.ChoreHinter: the selected part's job when it is
// missing, else the first missing part's.
func (m *Model) Chore() page.Chore {
	if m.rep == nil {
		return page.ChoreNone
	}
	ch := page.ChoreNone
	for _, s := range m.rep.Missing() {
		if s.Job != "" && ch == page.ChoreNone {
			ch = page.Chore(s.Job)
		}
	}
	if s, ok := m.partSource(); ok && !s.Covered() && s.Job != "" {
		ch = page.Chore(s.Job)
	}
	return ch
}

// choreOf says a missing part asks for chore ch.
func (m *Model) choreOf(ch page.Chore) bool {
	for _, s := range m.rep.Missing() {
		if page.Chore(s.Job) == ch {
			return true
		}
	}
	return false
}

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.NextTab):
		m.focus((m.part + 1) % nParts)
	case key.Matches(msg, k.PrevTab):
		m.focus((m.part + nParts - 1) % nParts)
	case key.Matches(msg, k.Down) && m.onReach():
		m.moveRow(1)
	case key.Matches(msg, k.Up) && m.onReach():
		m.moveRow(-1)
	case key.Matches(msg, k.Down):
		m.scroll(1)
	case key.Matches(msg, k.Up):
		m.scroll(-1)
	case key.Matches(msg, k.PageDown):
		m.scroll(max(1, m.h-2))
	case key.Matches(msg, k.PageUp):
		m.scroll(-max(1, m.h-2))
	case key.Matches(msg, k.Top):
		m.top = 0
	case key.Matches(msg, k.Enter) && m.part == partActivity:
		return page.OpenRoute("audit", m.email)
	case key.Matches(msg, k.Enter) && m.onReach():
		return m.openReach()
	case key.Matches(msg, k.Mark) && m.onReach():
		m.toggleMark()
	case key.Matches(msg, k.RemoveAccess):
		return m.askRemove()
	case key.Matches(msg, k.Refresh):
		return m.load(true)
	}
	return nil
}

// focus makes part p the one tab and enter act on, and scrolls to it.
func (m *Model) focus(p int) {
	m.part = p
	if at, ok := m.partLine(p); ok {
		m.top = at
		m.scroll(0)
	}
}

func (m *Model) scroll(d int) {
	n := len(m.body())
	m.top = max(0, min(m.top+d, n-max(1, m.h-1)))
}

// partSource is the selected part's source, for the parts a local job
// covers (reach: the crawl; activity: the sync).
func (m *Model) partSource() (person.Source, bool) {
	switch m.part {
	case partReach:
		return m.rep.Reach.Source, true
	case partActivity:
		return m.rep.Activity.Source, true
	}
	return person.Source{}, false
}
