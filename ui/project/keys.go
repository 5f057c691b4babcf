package project

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	if m.confirm != nil {
		return m.updateConfirm(msg)
	}
	k := m.env.Keys
	t := m.table()
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
		return m.show(m.tab)
	case key.Matches(msg, k.Delete):
		// k.Delete never matches in a read-only session (keys.New disables it)
		if m.deleted {
			return page.Status("this project's deletion is already in progress")
		}
		m.confirm = widgets.NewConfirm(m.env.Theme, "Delete project", m.deleteMessage(), m.expect())
		return nil
	case m.tab == tabFiles && key.Matches(msg, k.StatusFilter):
		m.statusIdx = (m.statusIdx + 1) % len(Statuses())
		return m.loadFiles("")
	case m.tab == tabFiles && key.Matches(msg, k.SendToFiles, k.Enter):
		ids := t.MarkedIDs()
		if len(ids) == 0 {
			ids = t.VisibleIDs()
		}
		if len(ids) == 0 {
			return page.Status("no files to show")
		}
		return page.OpenRoute("files", strings.Join(ids, ","))
	}
	cmd := t.Update(msg)
	if m.tab == tabFiles && m.hasMore && !m.loading && t.Cursor() >= t.Len()-prefetch {
		return tea.Batch(cmd, m.loadFiles(m.cursor))
	}
	return cmd
}

// expect is what the user types to confirm: the name, or the ID when the
// page was opened by ID and the name is unknown.
func (m *Model) expect() string {
	if n := sanitize.Line(m.proj.Name); n != "" {
		return n
	}
	return sanitize.Line(m.proj.ID)
}

func (m *Model) deleteMessage() string {
	files := "an unknown number of"
	if m.proj.Name != "" {
		files = fmt.Sprint(int64(m.proj.FilesCount))
	}
	return fmt.Sprintf("Delete %q (%s files)? It moves to the workspace recycle bin and is purged later.", m.expect(), files)
}

func (m *Model) updateConfirm(msg tea.KeyMsg) tea.Cmd {
	switch m.confirm.Update(msg) {
	case widgets.Cancelled:
		m.confirm = nil
		return page.Status("nothing was deleted")
	case widgets.Confirmed:
		m.confirm = nil
		if m.env.ReadOnly { // belt and braces: the key map already refuses
			return nil
		}
		tag := page.Tag{View: m.id}
		be, id := m.env.Backend, m.proj.ID
		return tea.Batch(m.loader.Start(), page.Fetch(m.env.Context(), tag, "delete",
			func(ctx context.Context) (*api.DeleteProjectResult, error) { return be.DeleteProject(ctx, id) }))
	}
	return nil
}

// afterDelete keeps cached lists honest once the service has acted on a
// deletion: accepted or partially failed, the project list and the recycle
// bin have changed, so their cached copies are dropped (the next visit
// refetches). Only an accepted deletion removes the project from a list
// still open below this view; a refusal changed nothing.
func (m *Model) afterDelete(r *api.DeleteProjectResult) tea.Cmd {
	switch r.Outcome() {
	case api.DeleteAccepted:
		page.Forget(m.env.Cache, page.CacheProjects, page.CacheRecycleBin)
		id := m.proj.ID
		return func() tea.Msg { return page.ProjectDeleted{ID: id} }
	case api.DeletePartial:
		page.Forget(m.env.Cache, page.CacheProjects, page.CacheRecycleBin)
	}
	return nil
}
