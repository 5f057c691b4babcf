package records

import (
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// AccessJobHeader is the access jobs' columns (`access receipts`, the
// console's :receipts), in the console's order.
func AccessJobHeader() []string {
	return []string{"job", "started (UTC)", "status", "done", "failed", "not settled", "undoes", "by"}
}

// AccessJob is one access job's record: the job's own counts, the job it
// undoes ("" for none) and who ran it (whoami's e-mail, as recorded).
func AccessJob(j *store.WriteJob) []string {
	c := CountsOf(j)
	undo := ""
	if j.UndoOf != 0 {
		undo = strconv.FormatInt(j.UndoOf, 10)
	}
	return []string{strconv.FormatInt(j.ID, 10), j.CreatedAt.UTC().Format(time.RFC3339), j.Status,
		strconv.Itoa(c.Done), strconv.Itoa(c.Failed), strconv.Itoa(c.Open), undo, j.ActorEmail}
}

// JobCounts are a write job's items as its lists count them: done,
// failed, and not settled (planned, in flight or unknown: what a resume
// still has to send or check).
type JobCounts struct{ Done, Failed, Open int }

// CountsOf counts j's items.
func CountsOf(j *store.WriteJob) JobCounts {
	return JobCounts{Done: j.Counts[store.ItemDone], Failed: j.Counts[store.ItemFailed],
		Open: j.Counts[store.ItemUnknown] + j.Counts[store.ItemInFlight] + j.Counts[store.ItemPlanned]}
}

// AccessChangeHeader is one access job's changes (`access receipts N`,
// the console's receipt open): each change's state and the service's
// outcome, what it was before, and its target (project|email).
func AccessChangeHeader() []string {
	return []string{"state", "outcome", "action", "change", "previous", "detail", "target"}
}

// AccessChange is one change's record.
func AccessChange(it *store.WriteJobItem) []string {
	return []string{it.State, it.Outcome, it.Action, it.Label, it.Previous, it.Detail, it.Target}
}
