package projectview

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if m.confirm != nil {
		return m.updateConfirm(msg)
	}
	k := m.env.Keys
	if !m.known() {
		if m.unresolved != "" && key.Matches(msg, k.Refresh) {
			return m.resolve()
		}
		if key.Matches(msg, k.Delete) {
			return m.askDelete() // says why there is nothing to delete
		}
		return nil
	}
	t := m.Table
	if t.Filtering() {
		return t.Update(msg)
	}
	switch {
	case key.Matches(msg, k.NextTab):
		return m.show((m.tab + 1) % 2)
	case key.Matches(msg, k.PrevTab):
		return m.show((m.tab + 1) % 2)
	case key.Matches(msg, k.Refresh):
		m.loaded = [2]bool{}
		m.complete = false
		return tea.Batch(m.show(m.tab), m.loadMeta())
	case key.Matches(msg, k.Upload):
		// k.Upload never matches in a read-only session (keys.New disables it)
		if m.going() {
			return page.Status("this project is being deleted: nothing can be uploaded to it")
		}
		return page.OpenRoute("upload", strings.TrimSpace(m.proj.ID+" "+m.proj.Name))
	case key.Matches(msg, k.Delete):
		// k.Delete never matches in a read-only session (keys.New disables it)
		return m.askDelete()
	case key.Matches(msg, k.DeleteFiles):
		// never matches in a read-only session or one without the jobs
		if m.tab == tabUsers {
			return m.askUserChange(false)
		}
		return m.askDeleteFiles()
	case key.Matches(msg, k.GrantAccess):
		if m.tab != tabUsers {
			return page.Status("+ grants access: open the Users tab (tab)")
		}
		if m.going() {
			return page.Status("this project is being deleted")
		}
		return m.access.AskGrant(m.env, m.proj.ID, m.proj.Name)
	case key.Matches(msg, k.ChangeLevel):
		if m.tab != tabUsers {
			return page.Status("= changes a user's level: open the Users tab (tab) and move to the user")
		}
		return m.askUserChange(true)
	case m.tab == tabUsers && key.Matches(msg, k.Person):
		if r, ok := t.Selected(); ok && len(r.Cells) > 1 {
			return page.OpenPerson(r.Cells[1]) // the user's e-mail
		}
		return nil
	case m.tab == tabFiles && key.Matches(msg, k.ToggleIDs):
		m.wholeIDs = !m.wholeIDs
		cols := FileColumns()
		if m.wholeIDs {
			cols = FileColumnsWithIDs()
		}
		t.SetColumns(cols)
		return nil
	case m.tab == tabFiles && key.Matches(msg, k.StatusFilter):
		m.statusIdx = (m.statusIdx + 1) % len(Statuses())
		return m.filterFiles()
	case m.tab == tabFiles && key.Matches(msg, k.SendToFiles, k.Enter):
		ids := t.MarkedIDs()
		if len(ids) == 0 {
			ids = t.VisibleIDs()
		}
		if len(ids) == 0 {
			return page.Status("no files to show")
		}
		return page.OpenRoute("files", FilesArg(ids, m.fileList))
	}
	cmd := t.Update(msg)
	if m.tab == tabFiles && m.hasMore && !m.loading && t.Cursor() >= t.Len()-prefetch {
		return tea.Batch(cmd, m.loadFiles(m.cursor))
	}
	return cmd
}
