package personview

// The reach part's rows act on what they name (issue 43): j/k select a
// row while reach is the part, enter opens its project.

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/plural"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// onReach says the reach part is selected and shows rows.
func (m *Model) onReach() bool { return m.part == partReach && len(m.reachRows()) > 0 }

// reachRows are the grants the reach part shows (the first maxRows; the
// command lists the rest).
func (m *Model) reachRows() []store.AccessGrant {
	if m.rep == nil || !m.rep.Reach.Covered() {
		return nil
	}
	g := m.rep.Reach.Grants
	return g[:min(len(g), maxRows)]
}

// moveRow moves the selected reach row by d, and scrolls so it shows.
func (m *Model) moveRow(d int) {
	rows := m.reachRows()
	m.row = max(0, min(m.row+d, len(rows)-1))
	at, _ := m.partLine(partReach)
	line := at + 1 + m.row
	switch {
	case line < m.top:
		m.top = line
	case line >= m.top+max(1, m.h-1):
		m.top = line - max(1, m.h-1) + 1
	}
	m.scroll(0)
}

// selectedGrant is the selected reach row's grant.
func (m *Model) selectedGrant() (store.AccessGrant, bool) {
	rows := m.reachRows()
	if len(rows) == 0 {
		return store.AccessGrant{}, false
	}
	return rows[min(m.row, len(rows)-1)], true
}

// openReach opens the selected row's project, named at once from the
// snapshot (page.ProjectName: the page looks up the rest).
func (m *Model) openReach() tea.Cmd {
	g, ok := m.selectedGrant()
	if !ok {
		return nil
	}
	p := page.ProjectName{ID: g.ProjectID, Name: g.ProjectName}
	return func() tea.Msg { return page.Open{Route: "project", Arg: p.ID, Record: p} }
}

// toggleMark marks or unmarks the selected reach row.
func (m *Model) toggleMark() {
	g, ok := m.selectedGrant()
	if !ok {
		return
	}
	if m.marked == nil {
		m.marked = map[string]bool{}
	}
	if m.marked[g.ProjectID] {
		delete(m.marked, g.ProjectID)
	} else {
		m.marked[g.ProjectID] = true
	}
}

// askRemove plans the removal of the person's direct share of each marked
// reach row (the selected one when none is marked), as `access plan
// --remove` would for those projects: the person is leaving them, so their
// MANAGE does not count as a project's manager.
func (m *Model) askRemove() tea.Cmd {
	if !m.onReach() {
		return page.Status("X removes access from the reach part: tab to it, mark rows with x, then X")
	}
	var wants []change.Want
	for _, g := range m.reachRows() {
		if m.marked[g.ProjectID] {
			wants = append(wants, change.Want{ProjectID: g.ProjectID, Email: m.email})
		}
	}
	if len(wants) == 0 {
		g, _ := m.selectedGrant()
		wants = []change.Want{{ProjectID: g.ProjectID, Email: m.email}}
	}
	src := fmt.Sprintf("--remove %s (the console: %s)", m.email, plural.Count(len(wants), "project"))
	return m.access.Ask(m.env, m.id, src, wants, []string{m.email})
}
