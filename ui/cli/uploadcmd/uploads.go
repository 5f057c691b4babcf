package uploadcmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/evidence"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// NewCmdUploads is `uploads [RUN]`: RunUploads, or RunFiles for one run.
func NewCmdUploads(f *factory.Factory) *cobra.Command {
	o := options(f)
	c := &cobra.Command{Use: "uploads [RUN]", Short: "list the upload journal's runs and their state; with RUN, every file of that run and its outcome",
		Args: cobra.MaximumNArgs(1)}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		if len(args) == 1 {
			return RunFiles(o, args[0])
		}
		return RunUploads(ctx, o)
	})
	c.AddCommand(NewCmdUndo(f), NewCmdReport(f))
	return c
}

// RunUploads lists the journal's runs of the profile, each with its state,
// its counts and the service's own audit evidence of it.
func RunUploads(ctx context.Context, o *Options) int {
	p := o.IO
	{
		st, profile, err := o.Journal()
		if err != nil {
			return p.Fail(err)
		}
		defer st.Close()
		// A damaged file can list a run with the wrong counts, or none.
		if err := st.CheckJournal(); err != nil {
			return p.Fail(err)
		}
		runs, err := st.UploadRuns(profile)
		if err != nil {
			return p.Fail(err)
		}
		type runJSON struct {
			ID        int64     `json:"id"`
			ProjectID string    `json:"project_id"`
			Mode      string    `json:"mode"`
			CreatedAt time.Time `json:"created_at"`
			State     string    `json:"state"`
			Files     int64     `json:"files"`
			Bytes     int64     `json:"bytes"`
			Uploaded  int64     `json:"uploaded"`
			Replaced  int64     `json:"replaced"` // superseded by a later upload of their name
			Skipped   int64     `json:"skipped"`
			Refused   int64     `json:"refused"`
			Failed    int64     `json:"failed"`
			Pending   int64     `json:"pending"`
			Unproven  int64     `json:"unproven"`
			// Deleted: deleted by a later undo (or found gone by it);
			// UndoUnknown: its deletion sent, the answer not recorded
			Deleted     int64 `json:"deleted"`
			UndoUnknown int64 `json:"undo_unknown"`
			OpenBatch   int64 `json:"unfinished_batches"`
			// who ran it beyond the token's owner, as write jobs' receipts name it
			ActorOSUser string `json:"actor_os_user"`
			ActorKey    string `json:"actor_key"`
			// Audit is the service's own api:vault_upload_files entries of
			// the run, from the local mirror (no audit request).
			Audit map[string]any `json:"audit_evidence"`
		}
		list := make([]runJSON, 0, len(runs))
		for _, x := range runs {
			state := "finished"
			switch {
			case x.Pending > 0 || x.OpenBatches > 0:
				state = "unfinished"
			case !x.Finished():
				state = "unproven" // nothing left to send, but not all is known to have arrived
			}
			list = append(list, runJSON{x.ID, x.ProjectID, x.Mode, x.CreatedAt.UTC(), state, x.Files, x.Bytes,
				x.Uploaded, x.Superseded, x.Skipped, x.Refused, x.Failed, x.Pending, x.Unproven, x.OpenBatches,
				0, 0, x.ActorOSUser, x.ActorKey, nil})
			l := &list[len(list)-1]
			after, err := undoCounts(st, x.ID)
			if err != nil {
				return p.Fail(err)
			}
			l.Uploaded += after.uploaded
			l.Replaced += after.replaced
			l.Deleted, l.UndoUnknown = after.deleted, after.unknown
			if after.open {
				l.State = "undo unfinished"
			}
		}
		audits := evidence.OfRuns(ctx, o.Client, st, evidence.Runs(runs))
		for i := range list {
			list[i].Audit = audits[i].JSON
		}
		cells := p.Cells()
		rows := make([][]string, len(list))
		for i, x := range list {
			// UTC, as every time vaultdeck shows (RFC 3339 in a CSV)
			rows[i] = []string{fmt.Sprint(x.ID), cells.Time(x.CreatedAt), x.ProjectID, x.Mode, x.State, fmt.Sprint(x.Files),
				cells.Size(api.Int(x.Bytes)), fmt.Sprint(x.Uploaded), fmt.Sprint(x.Replaced), fmt.Sprint(x.Deleted), fmt.Sprint(x.Skipped), fmt.Sprint(x.Refused), fmt.Sprint(x.Failed), fmt.Sprint(x.Pending), fmt.Sprint(x.Unproven),
				audits[i].Cell}
		}
		return p.Done(p.Show(printer.Value{JSON: list, Rows: rows, Note: evidence.Footnote(audits),
			Headers: []string{"RUN", "STARTED (UTC)", "PROJECT", "MODE", "STATE", "FILES", "SIZE", "UPLOADED", "REPLACED", "DELETED", "SKIPPED", "REFUSED", "FAILED", "PENDING", "UNPROVEN", "AUDIT"}}))
	}
}

// afterUndo is how a run's undos move its counts: out of uploaded (a
// negative uploaded) into deleted, unknown or replaced.
type afterUndo struct {
	uploaded, replaced, deleted, unknown int64
	open                                 bool // an undo's deletion not settled
}

// undoCounts reads what the run's undos did (upload.RunResult, the words
// `uploads RUN` says) and moves each file it changed from the journal's
// count to the undo's.
func undoCounts(st *store.Store, run int64) (afterUndo, error) {
	var a afterUndo
	files, err := st.RunFiles(run)
	if err != nil {
		return a, err
	}
	u, err := upload.ReadUndone(st, run, files)
	if err != nil {
		return a, err
	}
	bucket := func(word string) *int64 {
		switch word {
		case "uploaded", "renamed", "re-uploaded":
			return &a.uploaded
		case "replaced":
			return &a.replaced
		case "deleted", "gone":
			return &a.deleted
		case "unknown":
			return &a.unknown
		}
		return nil
	}
	for _, f := range files {
		before, _ := upload.Result(f)
		after, _, m := upload.RunResult(f, u)
		if m.Open() {
			a.open = true
		}
		if before == after {
			continue
		}
		if b := bucket(before); b != nil {
			*b--
		}
		if b := bucket(after); b != nil {
			*b++
		}
	}
	return a, nil
}
