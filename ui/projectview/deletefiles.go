package projectview

// Deleting files on purpose (issue 44): in the Files tab, X deletes the
// marked files, or the selected one, after the number is typed, as a
// delete_file write job (api/writejob/deletefile) run by the root as a
// task: each file recorded before its request, a file still processing
// tried again later, the outcome of each from the service's answer. The
// key is off in read-only sessions and those not handed the write jobs
// (keys.NewSession), and says why.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// askDeleteFiles opens the typed confirmation of the marked or selected
// files' deletion.
func (m *Model) askDeleteFiles() tea.Cmd {
	switch {
	case m.env.Jobs == nil || m.env.Jobs.Files == nil || m.env.Journal == nil:
		return page.Status("this session cannot delete files: it was not given the write jobs and their journal")
	case m.going():
		return page.Status("this project is being deleted")
	}
	ids := m.Table.MarkedIDs()
	if len(ids) == 0 {
		if r, ok := m.Table.Selected(); ok {
			ids = []string{r.ID}
		}
	}
	byID := map[string]int{}
	for i, f := range m.fileList {
		byID[f.ID] = i
	}
	var files []deletefile.File
	for _, id := range ids {
		if i, ok := byID[id]; ok {
			f := m.fileList[i]
			files = append(files, deletefile.File{ID: f.ID, Name: f.Name, ProjectID: m.proj.ID, Size: int64(f.Size)})
		}
	}
	if len(files) == 0 {
		return page.Status("no file selected: move to a file, or mark files with x, then X")
	}
	m.delFiles = files
	m.confirm = widgets.NewConfirm(m.env.Theme, "Delete files", deleteFilesMessage(m.Title(), files), strconv.Itoa(len(files)))
	return nil
}

func deleteFilesMessage(project string, files []deletefile.File) string {
	names := make([]string, 0, 3)
	for i, f := range files {
		if i == 3 {
			names = append(names, fmt.Sprintf("and %d more", len(files)-3))
			break
		}
		names = append(names, sanitize.Line(f.Name))
	}
	return fmt.Sprintf("Delete %s from %s (%s)? A deleted file cannot be put back through the service's interface. Type %d to confirm.",
		plural.Count(len(files), "file"), project, strings.Join(names, ", "), len(files))
}

// confirmedFiles starts the deletion task.
func (m *Model) confirmedFiles() tea.Cmd {
	files := m.delFiles
	m.delFiles = nil
	if m.env.ReadOnly || m.env.Jobs == nil || m.env.Jobs.Files == nil { // belt and braces: the key map already refuses
		return nil
	}
	return page.Start(DeleteFilesTask(m.env, m.id, m.Title(), files))
}

// DeleteFilesTask is the deletion of files as a root-owned task.
func DeleteFilesTask(env page.Env, origin page.ID, project string, files []deletefile.File) page.StartTask {
	be, st, svc, profile := env.Backend, env.Journal, env.Jobs.Files, env.DataProfile()
	return page.StartTask{
		Name:        "delete " + plural.Count(len(files), "file") + " from " + project,
		Origin:      origin,
		Invalidates: []string{person.CacheProjects},
		Reloads:     []string{person.CacheProjects},
		// quitting waits for the answer of a request already sent
		Stop: func() {},
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			job := store.WriteJob{Profile: profile, BaseURL: be.Base(),
				Plan: fmt.Sprintf("delete %s from project %s (the console's Files tab)\n", plural.Count(len(files), "file"), files[0].ProjectID)}
			for _, f := range files {
				job.Plan += "  " + f.ID + "  " + f.Name + "\n"
			}
			if who, err := be.WhoAmI(ctx); err == nil {
				job.ActorEmail, job.Workspace = who.Email, who.WorkspaceID
			}
			rep, err := deletefile.Delete(ctx, st, svc, job, files, 0, func(p writejob.Progress) {
				progress(deletefile.ProgressLine(p))
			})
			if err != nil {
				return page.Outcome{}, err
			}
			line, ok := deletefile.Summary(rep)
			if !ok {
				return page.Outcome{}, fmt.Errorf("%s", line)
			}
			return page.Outcome{Text: line}, nil
		},
	}
}
