package auditview

import (
	"context"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// A saved view at the log's newest entry is `audit --limit N --newest`:
// the newest N rows the view shows (own reads hidden or not, as it was).
// Reopened (:NAME), the view lands on exactly those N, not on a window of
// windowSize entries: the own reads of the log written between the save
// and the reopening (every read writes one) would otherwise take the
// window's places, and the view would come back saying --limit N-3 with
// other rows than the command lists (issue 42). --limit 0 is the whole
// log for the filters, as the command lists it.

// noCount is the landing of a view not opened from a saved --limit: one
// window.
const noCount = -1

// countedWindow reads on from first with next until the entries hold
// want rows that shown keeps (0: until the log's start), and cuts them
// just after the want-th such row. No more than maxSpan entries are read:
// past that the view shows what it read and its query says so.
func countedWindow(ctx context.Context, first audit.Window, want int, shown func(store.AuditEntry) bool,
	next func(ctx context.Context, below store.AuditEntry) (audit.Window, error)) (audit.Window, error) {
	w := first
	count := func() int {
		n := 0
		for _, e := range w.Entries {
			if shown(e) {
				n++
			}
		}
		return n
	}
	for !w.Start && (want == 0 || count() < want) && len(w.Entries) > 0 && len(w.Entries) < maxSpan {
		more, err := next(ctx, w.Entries[len(w.Entries)-1])
		w.Requests += more.Requests
		w.Mirror = w.Mirror && more.Mirror
		if err != nil {
			return w, err
		}
		w.Entries = append(w.Entries, more.Entries...)
		w.Start = more.Start
	}
	if want == 0 {
		return w, nil
	}
	n := 0
	for i, e := range w.Entries {
		if !shown(e) {
			continue
		}
		if n++; n == want {
			if i+1 < len(w.Entries) {
				// a cut above the start: older entries remain below it
				w.Entries, w.Start = w.Entries[:i+1], false
			}
			break
		}
	}
	return w, nil
}
