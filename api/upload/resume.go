package upload

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// Resume finishes every unfinished batch of the profile. A batch never
// started is simply sent. A batch that began is first reconciled against
// the project's listing: what arrived is completed with its IDs, and only
// the rest is re-sent, with the batch's own mode. A batch another live
// process holds is left to it and reported.
func (r *Runner) Resume(ctx context.Context) (Outcome, error) {
	var out Outcome
	// A damaged journal can read as "nothing left to do" (an index page
	// lost reads as empty): check the whole file before trusting it.
	if err := r.Store.CheckJournal(); err != nil {
		return out, err
	}
	// Files an earlier resume left unproven are in closed batches: nothing
	// is sent for them, but they are still not known to have arrived, so
	// they are named again and keep the outcome partial (exit 3).
	earlier, err := r.Store.UnprovenFiles(r.Profile)
	if err != nil {
		return out, err
	}
	out.Unproven = append(out.Unproven, earlier...)
	open, err := r.Store.UnfinishedBatches(r.Profile)
	if err != nil {
		return out, err
	}
	limited := r.refusedRuns(ctx, open, &out)
	claimedBy := map[string]map[string]bool{} // project -> file IDs the journal already holds
	var todo []store.JournalBatch
	runs := map[int64]bool{}
	for _, b := range open {
		if ctx.Err() != nil {
			// Stopped: what is not reconciled yet stays for a later resume.
			out.Unfinished++
			continue
		}
		if limited[b.Run.ID] {
			out.Unfinished++ // said once per run by refusedRuns
			continue
		}
		// Reconciling reads the project's listing and records what it
		// proves: not once the database's files changed under the process.
		if err := r.Store.Unchanged(); err != nil {
			return out, fmt.Errorf("the resume stopped before batch %d of run %d, nothing of it sent: %w", b.ID, b.Run.ID, err)
		}
		if err := r.Store.ClaimBatch(b.ID, r.lease()); err != nil {
			if errors.Is(err, store.ErrLeased) {
				out.Errors = append(out.Errors, fmt.Sprintf("batch %d of run %d is being worked on by another vaultdeck process; left to it", b.ID, b.Run.ID))
				out.Unfinished++
				continue
			}
			return out, fmt.Errorf("batch %d of run %d could not be claimed in the journal (%w), so nothing of it was sent; run `vaultdeck upload --resume` again once that is fixed", b.ID, b.Run.ID, err)
		}
		if !runs[b.Run.ID] {
			runs[b.Run.ID] = true
			out.RunIDs = append(out.RunIDs, b.Run.ID)
		}
		if !b.BeganAt.IsZero() {
			claimed := claimedBy[b.Run.ProjectID]
			if claimed == nil {
				if claimed, err = r.claimedIDs(b.Run.ProjectID); err != nil {
					return out, err
				}
				claimedBy[b.Run.ProjectID] = claimed
			}
			d, err := r.reconcile(ctx, b, claimed)
			if err != nil {
				out.Unfinished++
				out.Errors = append(out.Errors, fmt.Sprintf("batch %d: %v", b.ID, err))
				// A lease the journal could not give back is a journal
				// write that failed: nothing more is sent.
				if rerr := r.Store.ReleaseBatch(b.ID, r.owner(), err.Error()); rerr != nil {
					return out, fmt.Errorf("batch %d of run %d could not be given back in the journal (%w), so nothing more was sent; run `vaultdeck upload --resume` again once the database can be written", b.ID, b.Run.ID, rerr)
				}
				continue
			}
			if d.ambiguous > 0 {
				out.Notes = append(out.Notes, fmt.Sprintf("batch %d: %s whose arrival could not be proven (files of the same name and size are in the project) %s sent again with mode %s", b.ID, plural.Count(d.ambiguous, "file"), plural.Verb(d.ambiguous, "was", "were"), b.Run.Mode))
			}
			found := append(d.adopt, d.unproven...)
			if len(found) > 0 {
				if err := r.Store.CompleteBatch(b.ID, r.owner(), found, ""); err != nil {
					return out, err
				}
				byRow := map[int64]store.FileOutcome{}
				for _, o := range found {
					byRow[o.ID] = o
					if o.FileID != "" {
						claimed[strings.ToLower(o.FileID)] = true
					}
				}
				for i, f := range b.Files {
					o, ok := byRow[f.ID]
					if !ok {
						continue
					}
					f.State, f.FileID, f.Reason = o.State, o.FileID, o.Reason
					b.Files[i] = f
					if o.State == store.FileUploaded {
						out.Uploaded = append(out.Uploaded, f)
					} else {
						out.Unproven = append(out.Unproven, f)
					}
				}
				if d.resend == 0 {
					continue
				}
				// CompleteBatch released the lease with files still
				// pending: take it again for the re-send.
				if err := r.Store.ClaimBatch(b.ID, r.lease()); err != nil {
					out.Unfinished++
					if errors.Is(err, store.ErrLeased) {
						out.Errors = append(out.Errors, fmt.Sprintf("batch %d of run %d is being worked on by another vaultdeck process; left to it", b.ID, b.Run.ID))
						continue
					}
					return out, fmt.Errorf("batch %d of run %d could not be claimed again in the journal (%w), so none of its files was sent again; run `vaultdeck upload --resume` again once the database can be written", b.ID, b.Run.ID, err)
				}
			}
		}
		todo = append(todo, b)
	}
	if r.crash(StepQueued, 0) {
		return out, ErrCrashed
	}
	return out, r.sendAll(ctx, todo, &out)
}

// claimedIDs are the file IDs the journal (of any profile) already
// attributes to some file of a project: a reconciliation must not hand
// them to another.
func (r *Runner) claimedIDs(projectID string) (map[string]bool, error) {
	files, err := r.Store.ProjectFileIDs(projectID)
	if err != nil {
		return nil, err
	}
	m := map[string]bool{}
	for _, id := range files {
		m[strings.ToLower(id)] = true
	}
	return m, nil
}
