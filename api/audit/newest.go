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

// Walk is a newest-first read kept from window to window, for a reader
// that shows a window and later asks for the one below it (the console's
// audit view): what the service's stretches held beyond one window goes
// out with the next, with no request, and no stretch is read twice. A
// fresh Older below each window's last entry started an hour wide again
// and re-read what the window before had read and dropped. A Walk is used
// by one read at a time: its owner hands it to the read and takes it back
// with the answer.
type Walk struct {
	j     *Job
	f     store.AuditFilter
	b     bound // below this, for the first window
	wk    *walk
	last  *store.AuditEntry
	begun bool
}

// NewestWalk is a walk of the entries that pass f from the newest (or
// f.Until) back; its first window is Older's from there.
func (j *Job) NewestWalk(f store.AuditFilter) *Walk { return &Walk{j: j, f: f} }

// WalkBelow is a walk of the entries that pass f below last, an entry a
// window returned; its first window is OlderThan's.
func (j *Job) WalkBelow(f store.AuditFilter, last store.AuditEntry) *Walk {
	return &Walk{j: j, f: f, b: boundBelow(&last), last: &last}
}

// Next is the next window of up to want entries, below the last one the
// walk handed out.
func (w *Walk) Next(ctx context.Context, want int) (Window, error) {
	b := w.b
	if w.begun {
		b = boundBelow(w.last)
	}
	w.begun = true
	win, err := w.j.olderWith(ctx, w.f, b, want, want, &w.wk, false)
	if n := len(win.Entries); n > 0 {
		e := win.Entries[n-1]
		w.last = &e
	}
	return win, err
}

// Continues says the window below last is this walk's next: last is the
// entry it handed out last.
func (w *Walk) Continues(last store.AuditEntry) bool {
	return w != nil && w.last != nil && w.last.ID == last.ID
}
