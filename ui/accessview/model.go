// Package accessview is the console's `:access` view: the people of the last
// finished access snapshot with their project counts, `enter` for one
// person's projects and levels, and `tab` for what changed since the
// snapshot before. It reads the snapshot from the local database in a
// command and never asks the service: crawling is `vaultdeck access crawl`
// (or serve --crawl-every), api/access's job.
package accessview

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Tabs.
const (
	tabPeople = iota
	tabChanges
	tabPerson // one person's projects (enter on a person; esc returns)
)

// snapshot is what one read of the store gives the view.
type snapshot struct {
	snap     store.AccessSnapshot
	prev     *store.AccessSnapshot // the snapshot the changes are from; nil with one
	grants   []store.AccessGrant
	people   []access.Person
	changes  []access.Change
	crawling *store.AccessSnapshot // an unfinished crawl, for the header
}

type loaded = page.Result[snapshot]

// recheck is the tick that re-reads the snapshots while a crawl (this
// machine's CLI, serve's schedule, the demo's) is under way, so its
// progress and then its snapshot show without a key. It reads the local
// database only: no budget is spent.
type recheck struct{ view page.ID }

// recheckEvery is the re-read period while a crawl is under way.
const recheckEvery = 2 * time.Second

// Model is the access page.
type Model struct {
	env  page.Env
	id   page.ID
	reqs page.Requests
	widgets.TableView

	store   access.Snapshots
	profile string

	data   *snapshot
	err    error
	tab    int
	person access.Person
	shown  int // the tab shown before enter
	// ticking: a recheck is scheduled (a crawl is under way).
	ticking bool
	// reread: r asked for the read under way (saidAgain)
	reread bool
}

// Deps is where the snapshots live: the profile's database, and the
// profile they are kept for. A nil Store makes the page say so.
type Deps struct {
	Store   access.Snapshots
	Profile string
}

// Route returns the constructor the console registers as ":access".
// New builds the page.
func New(env page.Env, deps Deps) *Model {
	m := &Model{env: env, id: env.NewID(), store: deps.Store, profile: deps.Profile}
	m.TableView = widgets.NewTabbedTableView(env.Theme, env.Keys, m.id, 1, PeopleColumns(), ChangeColumns(), GrantColumns())
	return m
}

// Close implements page.Closer.
func (m *Model) Close() { m.reqs.Stop() }

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title implements page.Page.
func (m *Model) Title() string {
	if m.tab == tabPerson {
		return "access · " + sanitize.Line(m.person.Email)
	}
	return "access"
}

// Help lists this page's keys.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	return []key.Binding{keys.Hint(k.Enter, "a person's projects"), keys.Hint(k.NextTab, "people / changes"), keys.Hint(k.Person, "the person, whole"), k.Refresh}
}

// ContextKeys implements page.KeyHinter.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	if m.Table.Filtering() {
		return widgets.TableHints(k, m.Table)
	}
	switch m.tab {
	case tabPerson:
		return append(append(m.openHint(), keys.Hint(k.Back, "people"), k.Refresh), widgets.TableHints(k, m.Table)...)
	case tabChanges:
		return append(append(m.openHint(), keys.Hint(k.NextTab, "people"), k.Refresh), widgets.TableHints(k, m.Table)...)
	}
	var out []key.Binding
	if m.Table.Len() > 0 {
		out = append(out, keys.Hint(k.Enter, "projects"))
	}
	if m.Chore() != page.ChoreNone && m.env.Chores.Has(m.Chore()) {
		out = append(out, keys.Hint(k.RunHere, "crawl here"))
	}
	out = append(out, keys.Hint(k.NextTab, "changes"), k.Refresh)
	return append(out, widgets.TableHints(k, m.Table)...)
}

// WantsEsc: esc leaves a person's projects before it leaves the page.
func (m *Model) WantsEsc() bool { return m.tab == tabPerson || m.TableView.WantsEsc() }

// Init reads the snapshot.
func (m *Model) Init() tea.Cmd { return m.load() }

// load reads the last finished snapshot, its people and the diff from the
// one before, in a command (no IO in Update).
func (m *Model) load() tea.Cmd {
	tag, ctx := m.reqs.Start(m.env.Context(), m.id)
	st, profile := m.store, m.profile
	return page.Fetch(ctx, tag, "snapshot", func(context.Context) (snapshot, error) {
		if st == nil {
			return snapshot{}, errors.New("the access review needs the local database, which this session does not have")
		}
		return read(st, profile)
	})
}

func read(st access.Snapshots, profile string) (snapshot, error) {
	var out snapshot
	all, err := st.AccessSnapshots(profile)
	if err != nil {
		return out, err
	}
	if len(all) > 0 && !all[0].Finished() {
		out.crawling = &all[0]
	}
	fin, err := access.Finished(st, profile)
	if err != nil {
		return out, err
	}
	if len(fin) == 0 {
		return out, access.ErrNoSnapshot
	}
	out.snap = fin[0]
	if out.grants, err = st.AccessGrants(out.snap.ID, store.AccessGrantFilter{}); err != nil {
		return out, err
	}
	out.people = access.People(out.grants)
	if len(fin) > 1 {
		prev, _, changes, err := access.DiffSnapshots(st, profile, fin[1].ID, fin[0].ID)
		if err != nil {
			return out, err
		}
		out.prev, out.changes = &prev, changes
	}
	return out, nil
}

// Update implements page.Page.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	p, cmd := m.update(msg)
	m.fitHeader()
	return p, cmd
}

func (m *Model) update(msg tea.Msg) (page.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case loaded:
		if !m.reqs.Current(msg.Tag) {
			return m, nil
		}
		var again tea.Cmd
		if msg.Value.crawling != nil && !m.ticking {
			m.ticking = true // one tick at a time, whatever r adds
			id := m.id
			again = tea.Tick(recheckEvery, func(time.Time) tea.Msg { return recheck{id} })
		}
		if msg.Err != nil {
			m.err, m.reread = msg.Err, false
			if errors.Is(msg.Err, access.ErrNoSnapshot) {
				m.data = &msg.Value // the header can still show a crawl under way
				return m, again
			}
			return m, page.Error(fmt.Errorf("the access snapshot could not be read: %w", msg.Err))
		}
		m.err, m.data = nil, &msg.Value
		cmds := []tea.Cmd{again, m.saidAgain(), m.Tabs[tabPeople].SetRows(rows(m.data.people, PersonRow)), m.Tabs[tabChanges].SetRows(rows(m.data.changes, ChangeRow))}
		if m.tab == tabPerson {
			cmds = append(cmds, m.showPerson(m.person.Email))
		}
		return m, tea.Batch(cmds...)
	case page.TaskDone:
		if msg.Err == nil && msg.Name == string(page.ChoreCrawlAccess) {
			return m, m.load() // the crawl the hint asked for (L) ended: read its snapshot
		}
		return m, nil
	case recheck:
		if msg.view != m.id {
			return m, nil
		}
		m.ticking = false
		return m, m.load()
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
	case key.Matches(msg, k.Back) && m.tab == tabPerson && !m.Table.WantsEsc():
		m.show(m.shown)
		return nil
	case key.Matches(msg, k.Enter) && m.tab == tabPeople:
		r, ok := m.Table.Selected()
		if !ok || m.data == nil {
			return nil
		}
		m.shown = m.tab
		return m.showPerson(r.ID)
	case key.Matches(msg, k.Enter):
		return m.openProject()
	case key.Matches(msg, k.Person):
		return m.openPerson()
	case key.Matches(msg, k.NextTab, k.PrevTab) && m.tab != tabPerson:
		m.show(1 - m.tab)
		return nil
	case key.Matches(msg, k.Refresh):
		m.reread = true
		return m.load()
	}
	return m.Table.Update(msg)
}

// saidAgain says, once, what the read r asked for found: the same
// snapshot read again changes nothing on screen, and r would seem to do
// nothing.
func (m *Model) saidAgain() tea.Cmd {
	if !m.reread {
		return nil
	}
	m.reread = false
	return page.Status(fmt.Sprintf("read again: the last finished crawl is snapshot %d, of %s", m.data.snap.ID, m.data.snap.FinishedAt.UTC().Format(whenLayout)))
}

func (m *Model) show(tab int) {
	m.tab = tab
	m.ShowTab(tab)
}

// showPerson lists one person's projects from the grants already read.
// An address the snapshot does not hold (typed after :access user) is an
// error with the close matches, as the command's exit 1, and the people
// list stays: an empty list of projects would read as "reaches nothing".
func (m *Model) showPerson(email string) tea.Cmd {
	var mine []store.AccessGrant
	m.person = access.Person{Email: email}
	for _, g := range m.data.grants {
		if strings.EqualFold(g.Email, email) {
			mine = append(mine, g)
		}
	}
	known := make([]string, 0, len(m.data.people))
	for _, p := range m.data.people {
		known = append(known, p.Email)
		if strings.EqualFold(p.Email, email) {
			m.person = p
		}
	}
	if len(mine) == 0 {
		m.show(m.shown)
		return page.Error(&access.UnknownPersonError{Email: sanitize.Line(email), Snapshot: m.data.snap, Close: access.CloseMatches(email, known)})
	}
	m.show(tabPerson)
	return m.Table.SetRows(rows(mine, GrantRow))
}

// openHint offers enter on a project row (a person's projects, a change).
func (m *Model) openHint() []key.Binding {
	if _, ok := m.Table.Selected(); !ok {
		return nil
	}
	return []key.Binding{keys.Hint(m.env.Keys.Enter, "open project")}
}

// openProject opens the selected row's project (its users and files): the
// review's way from "who reaches what" to the thing reached. The rows of
// both tabs are keyed by project ID; the name comes from the snapshot, so
// the page shows it at once, and looks up the count the snapshot does not
// have (page.ProjectName) rather than saying 0 files.
func (m *Model) openProject() tea.Cmd {
	r, ok := m.Table.Selected()
	if !ok || m.data == nil {
		return nil
	}
	p := page.ProjectName{ID: r.ID}
	for _, g := range m.data.grants {
		if g.ProjectID == r.ID {
			p.Name = g.ProjectName
			break
		}
	}
	return func() tea.Msg { return page.Open{Route: "project", Arg: p.ID, Record: p} }
}

// openPerson opens the person view (P) for the selected person, the
// person whose projects are shown, or the person of a change.
func (m *Model) openPerson() tea.Cmd {
	if m.tab == tabPerson {
		return page.OpenPerson(m.person.Email)
	}
	r, ok := m.Table.Selected()
	if !ok {
		return nil
	}
	if m.tab == tabChanges && len(r.Cells) > 1 {
		return page.OpenPerson(r.Cells[1])
	}
	return page.OpenPerson(r.ID)
}

// Chore implements page.ChoreHinter: with no snapshot, or one alone (no
// changes to show), the hint asks for a crawl.
func (m *Model) Chore() page.Chore {
	if errors.Is(m.err, access.ErrNoSnapshot) || (m.data != nil && m.data.prev == nil && m.tab == tabChanges) {
		return page.ChoreCrawlAccess
	}
	return page.ChoreNone
}
