package upload

// The runner's side of the limits check (limits.go): an upload reads the
// project's metadata before its run is journaled, a resume before it sends a
// run's batches that never began. The read waits on the vault budget like
// any request, so a stop there (the first Ctrl-C) is the run's graceful
// stop: nothing sent, the run left for --resume.

import (
	"context"
	"errors"
	"fmt"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// checkBefore reads the limits for plan. It returns a *LimitError (refused:
// nothing is journaled or sent), nil when the plan fits, was stopped during
// the read (ctx ended: the caller's stop path leaves the run unsent), or
// the limits could not be read, which is said in out's notes (the service
// still refuses what passes a limit, part-way).
func (r *Runner) checkBefore(ctx context.Context, projectID string, plan Plan, mode api.DuplicateMode, out *Outcome) error {
	if r.Limits == nil {
		return nil
	}
	_, err := CheckLimits(ctx, r.Limits, projectID, plan, mode)
	var limit *LimitError
	switch {
	case errors.As(err, &limit):
		return err
	case err != nil && ctx.Err() == nil:
		out.Notes = append(out.Notes, err.Error()+"; uploading without checking them")
	}
	return nil
}

// refusedRuns checks, run by run, the pending files of the batches that
// never began (a run stopped or killed before its first request, perhaps
// during its own limits read). Batches that began are not checked: some of
// their files may have arrived, which only the reconciliation knows, and
// counting them again would refuse what fits. The runs returned are not
// sent; why is in out's errors.
func (r *Runner) refusedRuns(ctx context.Context, open []store.JournalBatch, out *Outcome) map[int64]bool {
	if r.Limits == nil {
		return nil
	}
	type run struct {
		store.UploadRun
		plan Plan
	}
	var order []int64
	runs := map[int64]*run{}
	for _, b := range open {
		if !b.BeganAt.IsZero() {
			continue
		}
		ru := runs[b.Run.ID]
		if ru == nil {
			ru = &run{UploadRun: b.Run}
			runs[b.Run.ID] = ru
			order = append(order, b.Run.ID)
		}
		for _, f := range b.Files {
			if f.State == store.FilePending {
				ru.plan.Files = append(ru.plan.Files, File{Local: f.Local, Name: f.Name, Path: f.Path, Size: f.Size})
			}
		}
	}
	refused := map[int64]bool{}
	for _, id := range order {
		ru := runs[id]
		if len(ru.plan.Files) == 0 || ctx.Err() != nil {
			continue // stopped: the send loop leaves every batch for a later resume
		}
		if err := r.checkBefore(ctx, ru.ProjectID, ru.plan, api.DuplicateMode(ru.Mode), out); err != nil {
			refused[id] = true
			out.Errors = append(out.Errors, fmt.Sprintf("run %d: %v; its files stay in the journal, unsent", id, err))
		}
	}
	return refused
}
