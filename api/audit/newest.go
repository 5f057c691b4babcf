package audit

import (
	"context"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// newestChunk is the entries one window of a newest-first answer asks for:
// a listing page, so memory holds one window whatever the limit.
const newestChunk = api.MaxAuditTake

// newestFirst hands the entries that pass f to fn newest first, from
// f.Until (zero: the newest) back to f.Since (zero: the log's start), at
// most f.Limit (0: all): window after window of Older, the walk the
// console's view reads, each below the last entry of the one before
// (OlderThan: no entry lost or repeated at a window's edge). The mirror
// answers where it reaches, the service otherwise.
func (j *Job) newestFirst(ctx context.Context, f store.AuditFilter, chunk int, fn func(store.AuditEntry) error) (Answer, error) {
	a := Answer{How: "newest"}
	var last *store.AuditEntry
	var wk *walk // the service's walk, kept from window to window: no stretch is read twice
	for {
		want := chunk
		if f.Limit > 0 {
			want = min(want, f.Limit-a.Delivered)
		}
		w, err := j.olderWith(ctx, f, boundBelow(last), want, f.Limit-a.Delivered, &wk, f.Limit == 0)
		a.Requests += w.Requests
		a.Service = a.Service || w.Requests > 0
		if w.MirrorState.Started() {
			a.Mirror, a.MirrorState = true, w.MirrorState
		}
		// A window that failed part way still holds the newest entries of
		// the stretches it finished, read and checked: they go out before
		// the error, as a forward listing's pages do.
		for _, e := range w.Entries {
			if err := fn(e); err != nil {
				return a, err
			}
			a.Delivered++
		}
		if err != nil {
			return a, err
		}
		if w.Start || len(w.Entries) == 0 || (f.Limit > 0 && a.Delivered >= f.Limit) {
			return a, nil
		}
		e := w.Entries[len(w.Entries)-1]
		last = &e
	}
}
