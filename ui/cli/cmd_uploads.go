package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/cli/auditcmd"
)

func (r *runner) uploadsCmd() *cobra.Command {
	c := &cobra.Command{Use: "uploads [RUN]", Short: "list the upload journal's runs and their state; with RUN, every file of that run and its outcome",
		Args: cobra.MaximumNArgs(1)}
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		if len(pos) == 1 {
			return r.uploadsRun(pos[0])
		}
		st, profile, err := r.journal()
		if err != nil {
			return r.fail(err)
		}
		defer st.Close()
		// A damaged file can list a run with the wrong counts, or none.
		if err := st.CheckJournal(); err != nil {
			return r.fail(err)
		}
		runs, err := st.UploadRuns(profile)
		if err != nil {
			return r.fail(err)
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
			OpenBatch int64     `json:"unfinished_batches"`
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
				x.Uploaded, x.Superseded, x.Skipped, x.Refused, x.Failed, x.Pending, x.Unproven, x.OpenBatches, nil})
		}
		audits := auditcmd.RunEvidence(ctx, r.f.Client, st, auditcmd.Runs(runs))
		for i := range list {
			list[i].Audit = audits[i].JSON
		}
		if r.jsonOut() {
			return r.emitJSON(list)
		}
		t := r.table("RUN", "STARTED", "PROJECT", "MODE", "STATE", "FILES", "SIZE", "UPLOADED", "REPLACED", "SKIPPED", "REFUSED", "FAILED", "PENDING", "UNPROVEN", "AUDIT")
		for i, x := range list {
			t.row(fmt.Sprint(x.ID), r.uploadStarted(x.CreatedAt), x.ProjectID, x.Mode, x.State, fmt.Sprint(x.Files),
				r.size(api.Int(x.Bytes)), fmt.Sprint(x.Uploaded), fmt.Sprint(x.Replaced), fmt.Sprint(x.Skipped), fmt.Sprint(x.Refused), fmt.Sprint(x.Failed), fmt.Sprint(x.Pending), fmt.Sprint(x.Unproven),
				audits[i].Cell)
		}
		if note := auditcmd.Footnote(audits); note != "" {
			defer fmt.Fprintln(r.env.Stderr, note)
		}
		return r.done(t.flush())
	})
	return c
}

// uploadStarted is a run's start: in the local zone on screen (the runs
// of this machine, by its clock), RFC 3339 in UTC with --csv.
func (r *runner) uploadStarted(t time.Time) string {
	if r.g.CSV {
		return r.at(t)
	}
	return t.Local().Format("2006-01-02 15:04")
}
