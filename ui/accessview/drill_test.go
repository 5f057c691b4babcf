package accessview

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// openOf runs cmd and returns the page.Open it asks for, if any.
func openOf(cmd tea.Cmd) (page.Open, bool) {
	if cmd == nil {
		return page.Open{}, false
	}
	o, ok := cmd().(page.Open)
	return o, ok
}

// Issue 29.3: enter on a project in a person's access list did nothing,
// silently: the access review had no way to the project. It opens the
// project's page (users, files) with the record already known, and so
// does enter on a change (the project it is about); the footer says so.
func TestAccessDrillsDownToTheProject(t *testing.T) {
	st, email, pid := twoSnapshots(t)
	m := New(pagetest.Env(t, &pagetest.Fake{}, false), Deps{Store: st, Profile: "work"})
	m.SetSize(120, 30)
	run(t, m, m.Init())
	for i := 0; i < 300; i++ {
		if r, _ := m.Table.Selected(); r.ID == strings.ToLower(email) {
			break
		}
		m.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	run(t, m, func() tea.Msg { return tea.KeyMsg{Type: tea.KeyEnter} })
	for i := 0; i < 300; i++ {
		if r, _ := m.Table.Selected(); r.ID == pid {
			break
		}
		m.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	if !hints(m, "enter") {
		t.Errorf("a person's projects do not offer enter: %v", m.ContextKeys())
	}
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	o, ok := openOf(cmd)
	rec, _ := o.Record.(page.ProjectName) // the snapshot knows the name, not the count
	if !ok || o.Route != "project" || o.Arg != pid || rec.ID != pid || rec.Name == "" {
		t.Fatalf("enter on %s in %s's projects: %+v, want the project's page", pid, email, o)
	}

	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	if !hints(m, "enter") {
		t.Errorf("the changes do not offer enter: %v", m.ContextKeys())
	}
	_, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if o, ok := openOf(cmd); !ok || o.Route != "project" || o.Arg != pid {
		t.Errorf("enter on the change: %+v, want project %s", o, pid)
	}
}

func hints(m *Model, k string) bool {
	for _, b := range m.ContextKeys() {
		for _, bk := range b.Keys() {
			if bk == k {
				return true
			}
		}
	}
	return false
}
