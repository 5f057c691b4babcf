package projectview

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/projects"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// A project opened by ID (":project UUID") knows nothing but the ID. The
// service has no "get project" call, so the listing is walked (100 a page)
// until the ID turns up: the name and size come first, so that the title,
// the delete confirmation and the file count are about a known project. A
// page that cannot resolve its ID says so and offers nothing to delete.

// CheckID refuses ":project" without a project ID, or with something that
// is not one, before any page opens or any request is spent.
func CheckID(arg string) error {
	switch {
	case arg == "":
		return fmt.Errorf(":project needs a project ID, e.g. :project 123e4567-e89b-12d3-a456-426614174000")
	case !api.IsUUID(arg):
		return fmt.Errorf("%q is not a project ID (a UUID like 123e4567-e89b-12d3-a456-426614174000)", sanitize.Line(arg))
	}
	return nil
}

type resolved = page.Result[*api.Project]

// resolve looks the project up; the answer's Value is nil when no project
// of the workspace has the ID.
func (m *Model) resolve() tea.Cmd {
	tag, ctx := m.lookup.Start(m.env.Context(), m.id)
	m.resolving, m.unresolved = true, ""
	be, id := m.env.Backend, m.proj.ID
	return tea.Batch(m.loader.Start(), page.Fetch(ctx, tag, "resolve", func(ctx context.Context) (*api.Project, error) {
		return projects.Find(ctx, be, id)
	}))
}

// Shows implements page.Reloader: the page shows the project's record
// from the listing (its file count), which an upload changes.
func (m *Model) Shows(key string) bool { return key == person.CacheProjects && m.known() }

// Reload implements page.Reloader (an upload changed the project): the
// record again, quietly, and the open tab. The root calls it once, when
// the page is shown.
func (m *Model) Reload() tea.Cmd {
	m.loaded, m.complete = [2]bool{}, false
	tag, ctx := m.lookup.Start(m.env.Context(), m.id)
	be, id := m.env.Backend, m.proj.ID
	return tea.Batch(m.show(m.tab), m.loadMeta(), page.Fetch(ctx, tag, "refresh", func(ctx context.Context) (*api.Project, error) {
		return projects.Find(ctx, be, id)
	}))
}

func (m *Model) resolvedProject(msg resolved) tea.Cmd {
	if !m.lookup.Current(msg.Tag) {
		return nil
	}
	if msg.Kind == "refresh" {
		if msg.Err == nil && msg.Value != nil {
			m.proj, m.uncounted = *msg.Value, false // a failed refresh keeps what was shown; r on the tab retries
		}
		return nil
	}
	m.loader.Done()
	m.resolving = false
	switch {
	case msg.Err != nil:
		m.unresolved = "project " + sanitize.Line(m.proj.ID) + " could not be looked up: " + sanitize.Line(msg.Err.Error()) + " · r retries"
		return nil
	case msg.Value == nil:
		m.unresolved = "no project with ID " + sanitize.Line(m.proj.ID) + " in this workspace (deleted, or in the recycle bin?)"
		return nil
	}
	m.proj = *msg.Value
	return m.show(m.tab) // users, or the tab a saved view named (query.go)
}

// known reports whether the page knows which project it shows.
func (m *Model) known() bool { return !m.resolving && m.unresolved == "" }
