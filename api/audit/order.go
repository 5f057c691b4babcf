package audit

import (
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// order is where a reader stands in the log: the last entry it took. Every
// answer must continue after it (ids ascending, times never going back),
// across pages and across the seed entry of earliest or search, not only
// within one page (which api.AuditPage checks against its from). A reader
// that took an answer going back would deliver entries twice, or page a
// listing that ignores from forever (issue 26, case 5).
type order struct {
	id string
	at time.Time
}

// after is a reader's place at cursor, whose time is at (zero: unknown).
func after(cursor string, at time.Time) order { return order{id: cursor, at: at} }

// take checks that items continue after o and moves o to their last entry.
func (o *order) take(items ...api.Item[api.AuditEntry]) error {
	if err := api.CheckAuditOrder(o.id, o.at, items); err != nil {
		return err
	}
	if n := len(items); n > 0 {
		o.id = items[n-1].Value.ID
		for _, it := range items {
			if t := it.Value.Timestamp.Time; t.After(o.at) {
				o.at = t // the latest so far, as CheckAuditOrder compares
			}
		}
	}
	return nil
}
