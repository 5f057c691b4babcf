package project

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/triage"
)

// tabNames names the tabs, in tab order.
func tabNames() []string { return []string{"Users", "Files"} }

// View implements page.Page.
func (m *Model) View() string {
	th := m.env.Theme
	if m.confirm != nil {
		return th.Renderer.Place(m.Width, m.Height, lipgloss.Center, lipgloss.Center, m.confirm.ViewSized(m.Width, m.Height))
	}
	head := []string{th.Title.Render(m.Title())}
	switch {
	case m.resolving:
		return strings.Join(append(head, m.loader.View()+" looking up the project's name and size"), " · ")
	case m.unresolved != "":
		return strings.Join(head, " · ") + "\n" + th.Error.Render(m.unresolved)
	}
	if m.proj.Name != "" {
		head = append(head, fmt.Sprintf("%d files", int64(m.proj.FilesCount)))
	}
	if m.deleting {
		head = append(head, th.Warn.Render("deleting…"))
	}
	if m.outcome != "" {
		style := th.OK
		if m.failed {
			style = th.Error
		}
		head = append(head, style.Render(m.outcome))
	}
	if v := m.loader.View(); v != "" {
		head = append(head, v+" loading")
	}
	tabs := tabNames()
	for i, name := range tabs {
		if i == m.tab {
			tabs[i] = th.ActiveTab.Render(name)
		} else {
			tabs[i] = th.Tab.Render(name)
		}
	}
	bar := strings.Join(tabs, " ")
	if m.tab == tabFiles {
		status := "all"
		if s := Statuses()[m.statusIdx]; s != "" {
			status = triage.Word(api.Status(s)) // one casing everywhere
		}
		bar += "  " + th.Muted.Render("status: "+status+" (f cycles) · s/enter: file status")
	}
	st := &m.states[m.tab]
	if label := st.Label(m.env.Clock()); st.Err() != nil && label != "" {
		bar += "  " + th.Error.Render(label)
	}
	if st.FailedEmpty() {
		return strings.Join(head, " · ") + "\n" + bar + "\n" + th.Error.Render(st.FailedView("The "+strings.ToLower(tabNames()[m.tab])+" of this project"))
	}
	return strings.Join(head, " · ") + "\n" + bar + "\n" + m.Table.View()
}
