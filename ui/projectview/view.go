package projectview

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/charmbracelet/lipgloss"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// tabNames names the tabs, in tab order.
func tabNames() []string { return []string{"Users", "Files"} }

// View implements page.Page.
func (m *Model) View() string {
	th := m.env.Theme
	if v, ok := m.access.View(th, m.Width, m.Height); ok {
		return v
	}
	if m.confirm != nil {
		return th.Renderer.Place(m.Width, m.Height, lipgloss.Center, lipgloss.Center, m.confirm.ViewSized(m.Width, m.Height))
	}
	title := th.Title.Render(m.Title())
	switch {
	case m.resolving:
		return title + " · " + m.loader.View() + " looking up the project's name and size"
	case m.unresolved != "":
		return title + "\n" + th.Error.Render(m.unresolved)
	}
	return strings.Join(m.headView(), "\n") + "\n" + m.tabsView()
}

// headView is the line above the tabs, wrapped rather than cut: a
// deletion's reason and counts stay whole; the project's name (also in
// the breadcrumb) and the loader give way first.
func (m *Model) headView() []string {
	th := m.env.Theme
	var head []widgets.Part
	if u := Usage(m.usage); u != "" {
		head = append(head, widgets.Keep(u)) // the service's own count, against its limits
	} else if m.proj.Name != "" && !m.uncounted {
		files := "files: invalid" // a count no project has: never wrapped
		if m.proj.FilesCount.Valid() {
			files = plural.Count(int(m.proj.FilesCount), "file")
		}
		head = append(head, widgets.Keep(files))
	}
	if m.deleting {
		head = append(head, widgets.Keep(th.Warn.Render("deleting…")))
	}
	if m.outcome != "" {
		style := th.OK
		if m.failed {
			style = th.Error
		}
		head = append(head, widgets.Keep(style.Render(m.outcome)))
	}
	if v := m.loader.View(); v != "" {
		// what the open tab waits for ("waiting 21s for the vault
		// budget"), which its empty table points to, else "loading"
		what := "loading"
		if st := &m.states[m.tab]; st.Loading() {
			what = st.Label(m.env.Clock())
		}
		head = append(head, widgets.Deco(v+" "+what))
	}
	info := widgets.Info{Title: m.Title(), Parts: head}
	return info.Lines(th, m.Width, m.env.Clock())
}

// SetSize implements page.Page: the tables get what the head leaves.
func (m *Model) SetSize(w, h int) {
	m.TableView.SetSize(w, h)
	m.fitHeader()
}

// fitHeader gives the tables what the head leaves when it wraps (after a
// deletion's outcome, a load, a resize).
func (m *Model) fitHeader() {
	if n := len(m.headView()) + 1; n != m.TableView.Header && m.Height > 0 {
		m.TableView.Header = n
		m.TableView.SetSize(m.Width, m.Height)
	}
}

// tabsView is the tab bar and the open tab.
func (m *Model) tabsView() string {
	th := m.env.Theme
	tabs := tabNames()
	for i, name := range tabs {
		if i == m.tab {
			tabs[i] = th.ActiveTab.Render(name)
		} else {
			tabs[i] = th.Tab.Render(name)
		}
	}
	bar := strings.Join(tabs, " ")
	st := &m.states[m.tab]
	if label := st.Label(m.env.Clock()); st.Err() != nil && label != "" {
		bar += "  " + th.Error.Render(label)
	}
	if m.tab == tabFiles {
		status := "all"
		if s := Statuses()[m.statusIdx]; s != "" {
			status = filestatus.Word(api.Status(s)) // one casing everywhere
		}
		bar += "  " + th.Muted.Render("status: "+status+" (f cycles) · s/enter: file status")
	}
	// one line whatever the width: the hint gives way, after the failure
	bar = ansi.Truncate(bar, max(m.Width, 1), "…")
	if st.FailedEmpty() {
		return bar + "\n" + th.Error.Render(st.FailedView("The "+strings.ToLower(tabNames()[m.tab])+" of this project"))
	}
	return bar + "\n" + m.Table.View()
}
