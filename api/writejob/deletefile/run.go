package deletefile

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// Delete records and runs a job deleting files (the console's Files tab
// and an upload's undo share it): job is its header (who, against what,
// the plan's text); the kind is New(svc). err is for a job that could not
// be recorded (nothing was sent then).
func Delete(ctx context.Context, st writejob.Journal, svc Service, job store.WriteJob, files []File, retryAfter time.Duration,
	progress func(writejob.Progress)) (*writejob.Report, error) {
	job.Kind = Name
	job = writejob.Stamp(ctx, job) // the local account; the serve session's key
	p, err := writejob.NewPlan(job, Items(files))
	if err != nil {
		return nil, err
	}
	d := writejob.Deps{Store: st, RetryAfter: retryAfter, Progress: progress}
	id, err := writejob.Start(d, p)
	if err != nil {
		return nil, fmt.Errorf("the deletion could not be recorded, so nothing was sent: %w", err)
	}
	return writejob.Run(ctx, d, New(svc), id), nil
}

// Resume goes on with a recorded deletion job that did not settle (a
// kill, a stop): writejob.Resume checks first what its requests in flight
// did, then sends the rest.
func Resume(ctx context.Context, st writejob.Journal, svc Service, id int64, retryAfter time.Duration,
	progress func(writejob.Progress)) *writejob.Report {
	d := writejob.Deps{Store: st, RetryAfter: retryAfter, Progress: progress}
	return writejob.Resume(ctx, d, New(svc), id)
}

// Summary is a job's outcome in one line, and whether all of it is done:
// "3 files deleted (job 7)"; "2 of 3 files deleted, 1 still processing
// (job 7)". A file not known to be deleted is never counted so.
func Summary(rep *writejob.Report) (string, bool) {
	n := map[string]int{}
	var open []string // the files not deleted, named
	for _, it := range rep.Items {
		if it.State != writejob.Done && len(open) < 3 {
			open = append(open, it.Label)
		} else if it.State != writejob.Done && len(open) == 3 {
			open = append(open, "…")
		}
		switch {
		case it.State == writejob.Done && it.Outcome == Gone:
			n["already gone"]++
		case it.State == writejob.Done:
			n["deleted"]++
		case it.Outcome == Busy:
			n["still processing"]++
		case it.State == writejob.Failed:
			n["failed"]++
		default:
			n["not known to be deleted"]++
		}
	}
	total := len(rep.Items)
	var parts []string
	for _, w := range []string{"deleted", "already gone", "still processing", "failed", "not known to be deleted"} {
		if n[w] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[w], w))
		}
	}
	ok := n["deleted"]+n["already gone"] == total && rep.Err == nil
	line := plural.Count(total, "file") + ": " + strings.Join(parts, ", ") + fmt.Sprintf(" (job %d)", rep.Job.ID)
	if len(open) > 0 {
		line += "; not deleted: " + strings.Join(open, ", ")
	}
	if rep.Err != nil {
		line += "; stopped: " + rep.Err.Error()
	}
	return line, ok
}

// ProgressLine is a deletion's progress as the console's task line says it
// (the Files tab's and the upload page's undo): what is settled, and why it
// waits: a file still processing (409) tried again later, or the next
// request held for the vault budget (or a 429's Retry-After), which has
// sent nothing of it yet.
func ProgressLine(p writejob.Progress) string {
	line := fmt.Sprintf("%d of %s settled", p.Settled, plural.Count(p.Items, "file"))
	switch {
	case p.Budget != nil:
		line += "; " + p.Budget.String()
		if !p.Budget.Until.IsZero() {
			line += ", until " + p.Budget.Until.Format("15:04:05")
		}
		line += "; nothing of the next request was sent yet"
	case p.Waiting > 0:
		line += fmt.Sprintf("; %d still processing, tried again in %s", p.Items-p.Settled, p.Waiting)
	}
	return line
}
