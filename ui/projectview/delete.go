package projectview

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/projects"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// The deletion flow: typed confirmation, then a task owned by the root (the
// outcome must not depend on this page still being open), then a follow-up
// task that waits until the project shows in the recycle bin.

// askDelete opens the typed confirmation (k.Delete never matches in a
// read-only session: keys.New disables it).
func (m *Model) askDelete() tea.Cmd {
	switch {
	case !m.known():
		return page.Status("nothing to delete: this page does not know which project it shows")
	case m.deleting:
		return page.Status("this project's deletion is already running")
	case m.deleted:
		return page.Status("this project's deletion is already in progress")
	}
	m.confirm = widgets.NewConfirm(m.env.Theme, "Delete project", m.deleteMessage(), m.expect())
	return nil
}

// going reports whether the project is on its way to the bin: the
// deletion runs, or the service accepted it. Its offers (upload, delete)
// follow this, not the page's first state.
func (m *Model) going() bool { return m.deleting || m.deleted }

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
		files = m.proj.FilesCount.String() // "invalid" for a count no project has
	}
	return fmt.Sprintf("Delete %q (%s files)? It moves to the workspace recycle bin and is purged later.", m.expect(), files)
}

func (m *Model) updateConfirm(msg tea.KeyMsg) tea.Cmd {
	switch m.confirm.Update(msg) {
	case widgets.Cancelled:
		m.confirm, m.delFiles = nil, nil
		return page.Status("nothing was deleted")
	case widgets.Confirmed:
		m.confirm = nil
		if m.delFiles != nil {
			return m.confirmedFiles()
		}
		if m.env.ReadOnly { // belt and braces: the key map already refuses
			return nil
		}
		m.deleting = true
		return page.Start(DeleteTask(m.env, m.id, m.proj))
	}
	return nil
}

// DeleteTask is the deletion of p as a root-owned task. Accepted or
// partially failed, the cached project list and recycle bin are wrong
// afterwards; an accepted deletion also tells the list below to drop the
// row (without a request: the service lists the project until it moves)
// and follows up by waiting for the project to reach the recycle bin.
func DeleteTask(env page.Env, origin page.ID, p api.Project) page.StartTask {
	be, name := env.Backend, sanitize.Line(p.Name)
	if name == "" {
		name = sanitize.Line(p.ID)
	}
	return page.StartTask{
		Name:        "delete project " + name,
		Origin:      origin,
		Invalidates: []string{person.CacheProjects, person.CacheRecycleBin},
		// One request, nothing to wind down; having a Stop makes quitting
		// wait for its answer instead of dropping a DELETE already sent.
		Stop: func() {},
		Run: func(ctx context.Context, _ page.Progress) (page.Outcome, error) {
			// the hub's record names the project as the person read it
			r, err := projects.Delete(api.WithSubject(ctx, p.Name), be, p.ID)
			if err != nil {
				return page.Outcome{}, err
			}
			text, failed := DeleteOutcome(r)
			if failed {
				return page.Outcome{}, errors.New(text)
			}
			return page.Outcome{
				Text:      text + " · " + name + " will appear in the recycle bin within seconds",
				Broadcast: page.ProjectDeleted{ID: p.ID},
				Then:      settleTask(env, p, name),
			}, nil
		},
	}
}

// settleTask waits (api/projects.WaitInBin) until the deleted project is
// in the recycle bin, then has the root drop the cached bin and reload an open one.
func settleTask(env page.Env, p api.Project, name string) *page.StartTask {
	be, every := env.Backend, env.TaskPollInterval()
	return &page.StartTask{
		Name:        name + " → recycle bin",
		Invalidates: []string{person.CacheRecycleBin},
		Reloads:     []string{person.CacheRecycleBin},
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			in, err := projects.WaitInBin(ctx, be, p, every, func(try, tries int) { progress(fmt.Sprintf("check %d of %d", try, tries)) })
			switch {
			case err != nil:
				return page.Outcome{}, err
			case in:
				return page.Outcome{Text: name + " is in the recycle bin (:bin)", Broadcast: page.ProjectInBin{ID: p.ID}}, nil
			}
			return page.Outcome{}, fmt.Errorf("%s is not in the recycle bin yet after %s; r in the recycle bin refreshes it",
				name, time.Duration(projects.BinTries)*every)
		},
	}
}

// taskDone takes this page's own deletion outcome (the root has already
// shown it in the status line).
func (m *Model) taskDone(d page.TaskDone) {
	if d.Origin != m.id || !m.deleting {
		return
	}
	m.deleting = false
	if d.Err != nil {
		m.outcome, m.failed = d.Err.Error(), true
		return
	}
	m.outcome, m.failed, m.deleted = d.Outcome.Text, false, true
}

// inBin closes this page once its project is in the recycle bin: the
// users and files it shows belong to a project that no longer exists.
func (m *Model) inBin(msg page.ProjectInBin) tea.Cmd {
	if !strings.EqualFold(msg.ID, m.proj.ID) {
		return nil
	}
	id := m.id
	return func() tea.Msg { return page.Close{Page: id, Note: "its page is closed"} }
}
