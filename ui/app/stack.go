// The page stack and the routes: what esc, q and the command line (":bin",
// ":project ID") do to the pages on screen. Kept apart from the key
// handling in app.go, which decides when they are called.
package app

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

func (m *Model) push(p page.Page) tea.Cmd {
	if p == nil {
		return nil
	}
	if a, ok := m.Top().(page.Activatable); ok {
		a.Deactivate() // covered: its polling waits until it is shown again
	}
	m.stack = append(m.stack, p)
	p.SetSize(m.bodySize())
	m.status, m.statusErr = "", false
	return p.Init()
}

// pop goes back one page; the first page stays (q quits). The page shown
// again resumes its background work.
func (m *Model) pop() tea.Cmd {
	if len(m.stack) <= 1 {
		return nil
	}
	m.drop()
	m.status, m.statusErr = "", false
	var cmd tea.Cmd
	if a, ok := m.Top().(page.Activatable); ok {
		cmd = a.Activate()
	}
	return tea.Batch(cmd, m.reloadOwed())
}

// closePage removes the page a page.Close names, wherever it is in the
// stack, keeping the status line (it says why) and adding the note.
func (m *Model) closePage(c page.Close) tea.Cmd {
	i := slices.IndexFunc(m.stack, func(p page.Page) bool {
		id, ok := p.(page.Identified)
		return ok && id.ID() == c.Page
	})
	if i < 0 || len(m.stack) <= 1 {
		return nil
	}
	status, isErr := m.status, m.statusErr
	var cmd tea.Cmd
	if i == len(m.stack)-1 {
		cmd = m.pop()
	} else {
		p := m.stack[i]
		if cl, ok := p.(page.Closer); ok {
			cl.Close()
		}
		delete(m.tasks.owed, p)
		delete(m.opened, p)
		m.stack = slices.Delete(m.stack, i, i+1)
	}
	m.status, m.statusErr = status, isErr
	if c.Note != "" {
		m.status = strings.TrimPrefix(m.status+" · "+sanitize.Line(c.Note), " · ")
	}
	return cmd
}

// drop removes the top page for good: its armed work stops, its requests
// in flight are cancelled (they spend no more budget).
func (m *Model) drop() {
	top := m.Top()
	if a, ok := top.(page.Activatable); ok {
		a.Deactivate()
	}
	if c, ok := top.(page.Closer); ok {
		c.Close()
	}
	delete(m.tasks.owed, top)
	delete(m.opened, top)
	m.stack[len(m.stack)-1] = nil
	m.stack = m.stack[:len(m.stack)-1]
}

func (m *Model) route(name string) *Route {
	for i, r := range m.cfg.Routes {
		if r.Name == name {
			return &m.cfg.Routes[i]
		}
		for _, a := range r.Aliases {
			if a == name {
				return &m.cfg.Routes[i]
			}
		}
	}
	return nil
}

// openMsg opens a page.Open: from its record when the route takes one,
// else as the command line would.
func (m *Model) openMsg(o page.Open) tea.Cmd {
	if r := m.route(o.Route); r != nil && r.FromRecord != nil && o.Record != nil {
		if p := r.FromRecord(m.env, o.Record); p != nil {
			m.remember(p, r.Name, o.Arg)
			return m.push(p)
		}
	}
	return m.open(o.Route, o.Arg)
}

// remember notes which route and argument opened p, so :view of the same
// shows it again rather than a fresh copy.
func (m *Model) remember(p page.Page, route, arg string) {
	if m.opened == nil {
		m.opened = map[page.Page]string{}
	}
	m.opened[p] = route + " " + arg
}

func (m *Model) open(name, arg string) tea.Cmd {
	r := m.route(name)
	// A refused command is an error of the closed command line: it leaves
	// at the next key that acts on the page under it (updateTop).
	if r == nil {
		m.setStatus(page.StatusMsg{Err: errUnknownCommand(name)})
		m.statusOwner = m.Top()
		return nil
	}
	if r.Check != nil {
		if err := r.Check(arg); err != nil {
			m.setStatus(page.StatusMsg{Err: err})
			m.statusOwner = m.Top()
			return nil
		}
	}
	p := r.New(m.env, arg)
	m.remember(p, r.Name, arg)
	return m.push(p)
}

// jump is what `:view` does (as in k9s): it replaces the stack above the
// root instead of growing it; the root's own view just goes back to it.
func (m *Model) jump(name, arg string) tea.Cmd {
	r := m.route(name)
	if r == nil || (r.Check != nil && r.Check(arg) != nil) || len(m.stack) == 0 {
		return m.open(name, arg) // open says what is wrong
	}
	for len(m.stack) > 1 {
		m.drop() // the pages in between are not shown again: nothing of theirs runs
	}
	m.status, m.statusErr = "", false
	if m.opened[m.stack[0]] == r.Name+" "+arg {
		var cmd tea.Cmd
		if a, ok := m.Top().(page.Activatable); ok {
			cmd = a.Activate()
		}
		return tea.Batch(cmd, m.reloadOwed())
	}
	return m.open(name, arg)
}

func (m *Model) commands() []string {
	cs := []string{"quit"}
	for _, r := range m.cfg.Routes {
		cs = append(cs, r.Name)
		cs = append(cs, r.Aliases...)
	}
	return append(cs, m.savedNames()...)
}

func (m *Model) runCommand(line string) tea.Cmd {
	name, arg, _ := strings.Cut(line, " ")
	if name == "quit" || name == "q" {
		return m.quit()
	}
	if cmd, ok := m.openSaved(name); ok {
		return cmd
	}
	return m.jump(name, strings.TrimSpace(arg))
}

type commandError string

func (e commandError) Error() string { return string(e) }

func errUnknownCommand(name string) error {
	return commandError("there is no command \"" + sanitize.Line(name) + "\"; press : and tab to see the commands")
}
