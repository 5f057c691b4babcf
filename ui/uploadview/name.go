package uploadview

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/projects"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// `:upload PROJECT_ID` knows only the ID. The page looks the name up as
// `:project` does, so that the title, the summary and the task say which
// project the files go to, and an ID no project has is refused before
// anything is read or sent.

type named = page.Result[*api.Project]

func (m *Model) lookupName() tea.Cmd {
	if !m.naming {
		return nil
	}
	tag, ctx := m.lookup.Start(m.env.Context(), m.id)
	be, id := m.env.Backend, m.project
	return page.Fetch(ctx, tag, "name", func(ctx context.Context) (*api.Project, error) {
		return projects.Find(ctx, be, id)
	})
}

// Close implements page.Closer: a lookup still in flight is abandoned.
func (m *Model) Close() { m.lookup.Stop() }

func (m *Model) named(msg named) tea.Cmd {
	if !m.lookup.Current(msg.Tag) {
		return nil
	}
	m.naming = false
	switch {
	case msg.Err != nil:
		// The ID may still be right: the upload stays possible, under the ID.
		return page.Error(fmt.Errorf("the name of project %s could not be looked up: %w", sanitize.Line(m.project), msg.Err))
	case msg.Value == nil:
		if m.stage <= stageConfirm {
			m.stage, m.confirm = stageDone, nil
			m.err = "no project with ID " + sanitize.Line(m.project) + " in this workspace (deleted, or in the recycle bin?)"
		}
		return nil
	}
	m.project = msg.Value.ID
	m.name = sanitize.Line(msg.Value.Name)
	return nil
}
