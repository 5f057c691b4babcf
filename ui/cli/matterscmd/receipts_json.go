package matterscmd

import (
	"time"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/store"
)

// receiptJSON is a receipt as --json and --export json show it.
func receiptJSON(rc store.Receipt) map[string]any {
	m := map[string]any{"id": rc.ID, "action": rc.Action, "profile": rc.Profile, "endpoint": rc.Endpoint,
		"file": rc.FileName, "sha256": rc.FileSHA256, "pairs": rc.Pairs, "status": rc.Status, "note": rc.Note,
		"started_at": rc.StartedAt.UTC().Format(time.RFC3339Nano), "counts": rc.Counts,
		"actor_os_user": rc.ActorOSUser, "actor_key": rc.ActorKey} // as write jobs' receipts name them
	if !rc.FinishedAt.IsZero() {
		m["finished_at"] = rc.FinishedAt.UTC().Format(time.RFC3339Nano)
	}
	if rc.RestoreOf != 0 {
		m["restore_of"] = rc.RestoreOf
	}
	// what is true now: the restores since, and what a re-run would do
	if rs := rc.Restored; len(rs.By) > 0 {
		m["restored_by"], m["restored"], m["restore_in_flight"], m["not_restored"] = rs.By, rs.Lines, rs.InFlight, rs.Remaining
		if rs.Again > 0 {
			m["deleted_again"], m["deleted_again_by"] = rs.Again, rs.AgainBy
		}
	}
	m["status_text"] = matters.Status(rc)
	if rerun := matters.Rerun(rc); rerun != "" {
		m["rerun"] = rerun
	}
	return m
}

// openReceipts opens the store and checks it is whole first: a damaged
// file must be said, never shown as fewer receipts or fewer outcomes.
func (o *Options) openReceipts() (*store.Store, error) {
	st, err := o.Store()
	if err != nil {
		return nil, err
	}
	if err := st.Check(); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}
