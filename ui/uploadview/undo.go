package uploadview

// The run view's undo (issue 44): once an upload is done, X deletes the
// files that run created and that are still the run's, as `vaultdeck
// uploads undo RUN` does: the count typed, then a task that plans the undo
// (api/upload.PlanUndo: the project's files now) and runs the delete_file
// write job (api/writejob/deletefile), its outcome naming what it left.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// undoable is the run the page can undo: one run, some files uploaded.
func (m *Model) undoable() (int64, int, bool) {
	if m.stage != stageDone || m.shared == nil || m.undoing {
		return 0, 0, false
	}
	o := m.shared.outcome()
	if len(o.RunIDs) != 1 || len(o.Uploaded) == 0 || m.undoneAll() {
		return 0, 0, false
	}
	return o.RunIDs[0], len(o.Uploaded), true
}

// undoneAll: the run's files are read and an undo deleted (or found gone)
// every one it created, so X has nothing left to offer.
func (m *Model) undoneAll() bool {
	if m.run == 0 || m.undone == nil {
		return false
	}
	for _, f := range m.files {
		if f.FileID == "" {
			continue
		}
		if w, _, _ := upload.RunResult(f, m.undone); w != "deleted" && w != "gone" {
			return false
		}
	}
	return true
}

// askUndo opens the typed confirmation.
func (m *Model) askUndo() tea.Cmd {
	run, n, ok := m.undoable()
	switch {
	case m.env.Jobs == nil || m.env.Jobs.Files == nil || m.env.Journal == nil:
		return page.Status("this session cannot delete files: it was not given the write jobs and their journal")
	case !ok:
		return page.Status("nothing to undo here: X undoes a finished upload that created files")
	}
	m.undoConfirm = widgets.NewConfirm(m.env.Theme, "Undo this upload",
		fmt.Sprintf("Delete the files upload run %d created in %s that are still the run's (at most %s; one a newer upload replaced is left alone and named)? A deleted file cannot be put back through the service's interface. Type %d to confirm.",
			run, m.target(), plural.Count(n, "file"), n), strconv.Itoa(n))
	return nil
}

func (m *Model) undoKey(msg tea.KeyMsg) tea.Cmd {
	switch m.undoConfirm.Update(msg) {
	case widgets.Cancelled:
		m.undoConfirm = nil
		return page.Status("nothing was deleted")
	case widgets.Confirmed:
		m.undoConfirm = nil
		run, _, ok := m.undoable()
		if !ok || m.env.ReadOnly {
			return nil
		}
		m.undoing = true
		return page.Start(UndoTask(m.env, m.id, run, m.project))
	}
	return nil
}

// UndoTask plans and runs the undo of run as a root-owned task.
func UndoTask(env page.Env, origin page.ID, run int64, projectID string) page.StartTask {
	be, st, svc, profile := env.Backend, env.Journal, env.Jobs.Files, env.DataProfile()
	return page.StartTask{
		Name:        fmt.Sprintf("undo upload run %d", run),
		Origin:      origin,
		Invalidates: []string{person.CacheProjects},
		Reloads:     []string{person.CacheProjects},
		Stop:        func() {},
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			say := func(p writejob.Progress) { progress(deletefile.ProgressLine(p)) }
			// an undo of the run that did not settle (killed, stopped) is
			// resumed, as `uploads undo RUN` does, not planned a second time
			if job, ok, err := upload.UnsettledUndo(st, run); err != nil {
				return page.Outcome{}, err
			} else if ok {
				return undoOutcome(run, deletefile.Resume(ctx, st, svc, job.ID, 0, say), nil)
			}
			summary, err := runOf(st, profile, run)
			if err != nil {
				return page.Outcome{}, err
			}
			undone, err := upload.UndoneFiles(st, run) // an earlier undo's deletions are gone for that reason
			if err != nil {
				return page.Outcome{}, err
			}
			plan, err := upload.PlanUndo(ctx, be, st, run, projectID, undone)
			if err != nil {
				return page.Outcome{}, err
			}
			var left []string
			for _, l := range plan.Left {
				left = append(left, l.Name+" ("+l.Why+")")
			}
			if len(plan.Delete) == 0 {
				return page.Outcome{Text: fmt.Sprintf("upload run %d: nothing left to delete; %s", run, strings.Join(left, "; "))}, nil
			}
			job := store.WriteJob{Profile: profile, BaseURL: be.Base(),
				// the plan as `uploads undo` keeps it: the run's listing reads its
				// left and gone lines back (upload.ReadUndone)
				Plan: upload.UndoTag(run) + upload.UndoText(summary, plan) + "from     the console's upload page\n"}
			if who, err := be.WhoAmI(ctx); err == nil {
				job.ActorEmail, job.Workspace = who.Email, who.WorkspaceID
			}
			rep, err := deletefile.Delete(ctx, st, svc, job, plan.Delete, 0, say)
			if err != nil {
				return page.Outcome{}, err
			}
			return undoOutcome(run, rep, left)
		},
	}
}

// undoOutcome is the task's end: the job's summary, what it left alone;
// an error while any file is not known to be deleted.
func undoOutcome(run int64, rep *writejob.Report, left []string) (page.Outcome, error) {
	line, ok := deletefile.Summary(rep)
	if len(left) > 0 {
		line += "; left alone: " + strings.Join(left, "; ")
	}
	if !ok {
		return page.Outcome{}, fmt.Errorf("%s", line)
	}
	return page.Outcome{Text: line + " · `vaultdeck uploads undo " + strconv.FormatInt(run, 10) + " --receipt` shows the receipt"}, nil
}

// runOf is the profile's upload run id, as the journal sums it up.
func runOf(st *store.Store, profile string, id int64) (store.RunSummary, error) {
	r, ok, err := st.UploadRun(profile, id)
	if err == nil && !ok {
		err = fmt.Errorf("profile %s has no upload run %d in the journal", profile, id)
	}
	return r, err
}
