package upload

// The undo of an upload run (issue 44): the files that run created and
// that are still the run's are deleted through the delete_file write job
// (api/writejob/deletefile). A file of the run that a newer upload of its
// name replaced since is not the run's any more: it is named, with the
// newer file, and left alone, as is everything the run did not create.

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
)

// UndoTag is how a delete_file job names the upload run it undoes: the
// first line of its plan, so that the command line and the console find
// the undos of a run (to resume one, or to say what they deleted).
func UndoTag(run int64) string { return fmt.Sprintf("undo of upload run %d\n", run) }

// UndoService is what planning an undo reads of the service: the
// project's live files (one get_metadata) and, for the run's files not
// among them, what became of them (get_files).
type UndoService interface {
	GetMetadata(ctx context.Context, projectID string) (*api.ProjectMetadata, error)
	GetFiles(ctx context.Context, ids []string) ([]api.Item[api.FileDetail], error)
}

// UndoJournal is the journal's side: the run's files.
type UndoJournal interface {
	RunFiles(runID int64) ([]store.JournalFile, error)
}

// Left is a file of the run the undo does not delete, and why.
type Left struct {
	Name, Path, FileID string
	Why                string
}

// UndoPlan is what undoing a run would do.
type UndoPlan struct {
	RunID     int64
	ProjectID string
	Delete    []deletefile.File // the run's files, still live and still the run's
	Gone      []Left            // the run's files already not there
	Left      []Left            // the run's files it will not touch, and why
	NotSent   int               // files of the run that never reached the service
}

// PlanUndo plans the undo of run (of projectID) from the journal and the
// service as it is now. undone names the run's files an earlier undo of it
// deleted (file ID: which job), which are gone for that reason.
func PlanUndo(ctx context.Context, svc UndoService, j UndoJournal, runID int64, projectID string, undone map[string]string) (*UndoPlan, error) {
	files, err := j.RunFiles(runID)
	if err != nil {
		return nil, err
	}
	up := &UndoPlan{RunID: runID, ProjectID: projectID}
	var created []store.JournalFile
	for _, f := range files {
		switch {
		case f.FileID != "" && (f.State == store.FileUploaded || f.State == store.FileReplaced):
			created = append(created, f)
		case f.State == store.FilePending && f.Reason != "":
			up.Left = append(up.Left, Left{Name: f.Name, Path: f.Path, Why: "unproven: not known whether it reached the service (`vaultdeck upload --resume` finds out); left alone"})
		default:
			up.NotSent++
		}
	}
	if len(created) == 0 {
		return up, nil
	}
	meta, err := svc.GetMetadata(ctx, projectID)
	if err != nil {
		return nil, fmt.Errorf("the project's files could not be read: %w", err)
	}
	live := map[string]bool{}
	byName := map[string][]string{} // live names to ids, when the answer names them
	for i, id := range meta.FileIDs {
		live[strings.ToLower(id)] = true
		if i < len(meta.FileNames) {
			byName[meta.FileNames[i]] = append(byName[meta.FileNames[i]], id)
		}
	}
	var check []store.JournalFile
	for _, f := range created {
		if live[strings.ToLower(f.FileID)] {
			name := f.Name
			if f.ServiceName != "" {
				name = f.ServiceName
			}
			up.Delete = append(up.Delete, deletefile.File{ID: f.FileID, Name: name, ProjectID: projectID, Path: f.Local, Size: f.Size})
			continue
		}
		check = append(check, f)
	}
	if len(check) == 0 {
		return up, nil
	}
	ids := make([]string, len(check))
	for i, f := range check {
		ids[i] = f.FileID
	}
	got, err := svc.GetFiles(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("what became of %d of the run's files could not be read: %w", len(check), err)
	}
	for i, f := range check {
		d := got[i].Value
		newer := byName[f.Name]
		switch {
		case undone[f.FileID] != "":
			up.Gone = append(up.Gone, Left{Name: f.Name, Path: f.Path, FileID: f.FileID, Why: "deleted by " + undone[f.FileID]})
		case d.Superseded() && (len(newer) > 0 || f.State == store.FileReplaced || !f.DeletedAt.IsZero()):
			why := "replaced since by a newer upload of its name"
			if len(newer) > 0 {
				why += " (" + strings.Join(newer, ", ") + ", not this run's)"
			}
			up.Left = append(up.Left, Left{Name: f.Name, Path: f.Path, FileID: f.FileID, Why: why + ": left alone"})
		case d.Superseded():
			// deleted_at is set for a deleted file as for a replaced one;
			// no live file of its name says which
			up.Gone = append(up.Gone, Left{Name: f.Name, Path: f.Path, FileID: f.FileID, Why: "already gone (deleted_at set: deleted since, or replaced by a file since deleted)"})
		case d.Failed():
			up.Gone = append(up.Gone, Left{Name: f.Name, Path: f.Path, FileID: f.FileID, Why: "already gone (" + d.Error + ")"})
		default:
			// get_files finds it live, the metadata did not list it: the
			// two answers disagree; it is not deleted on a guess
			up.Left = append(up.Left, Left{Name: f.Name, Path: f.Path, FileID: f.FileID,
				Why: "get_files finds it live but get_metadata does not list it in the project: left alone"})
		}
	}
	return up, nil
}

// UndoText is the plan as a person reads it (and the job keeps: ReadUndone
// reads its left and gone lines back, planLine).
func UndoText(run store.RunSummary, up *UndoPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "undo      upload run %d (%s, mode %s) in project %s\n", run.ID, run.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), run.Mode, run.ProjectID)
	fmt.Fprintf(&b, "delete    %s, one request each\n", plural.Count(len(up.Delete), "file"))
	for _, f := range up.Delete {
		fmt.Fprintf(&b, "          %s  %s\n", f.ID, f.Name)
	}
	for _, l := range up.Gone {
		fmt.Fprintf(&b, "gone      %s  %s: %s\n", l.FileID, l.Name, l.Why)
	}
	for _, l := range up.Left {
		id := l.FileID
		if id == "" {
			id = "-"
		}
		fmt.Fprintf(&b, "left      %s  %s: %s\n", id, l.Name, l.Why)
	}
	if up.NotSent > 0 {
		fmt.Fprintf(&b, "not sent  %s the run never uploaded: nothing to delete\n", plural.Count(up.NotSent, "file"))
	}
	return b.String()
}
