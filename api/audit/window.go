package audit

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// Window is a run of entries for a reader that starts at the newest (the
// console, and the CLI's newest-first answers): the log is read backwards
// in windows, which the service cannot do (its listing only goes forward),
// so each window is found by time.
type Window struct {
	Entries []store.AuditEntry // newest first
	// Mirror: every entry came from the local mirror (no request for the
	// part it covers). Requests counts the audit requests made.
	Mirror   bool
	Requests int
	// Start: nothing older than the last entry passes the filter (the
	// beginning of the log, or f.Since, was reached).
	Start bool
	// MirrorState is the mirror's reach when it answered (some of) the
	// window; zero when the service answered it all.
	MirrorState store.AuditMirrorState
}

// firstSpan is the first stretch of log time read backwards from the
// service (walk.go); each further one is sized from the density the one
// before showed, at most growMost times wider, so a quiet log is crossed
// in a few searches and a busy one is not read a day at a time.
const firstSpan = time.Hour

// Older returns up to want entries that pass f and are older than before
// (zero: than f.Until, or from the newest when f has none), newest first,
// none before f.Since. The mirror answers when it covers the range (for
// the newest, with the service's short tail after its cursor); otherwise
// the service is read: with a type, its latest entry of the type first
// (one request says where the type's newest is, or that it has none),
// then stretches of time going back (search, then pages, all asking for
// the type), and beyond its one-year reach from its earliest entry.
// f's Newest, Limit and paging bounds are set here.
func (j *Job) Older(ctx context.Context, f store.AuditFilter, before store.AuditPosition, want int) (Window, error) {
	return j.older(ctx, f, bound{at: before}, want)
}

// OlderThan is Older below last, an entry a window returned. An entry
// of the mirror is a position in it; one read from the service has none,
// and a bare time would lose the entries of its instant not yet shown
// (and those listed before it but stamped up to api.AuditTimeSlack
// later), so the bound is the entry itself in the service's order.
func (j *Job) OlderThan(ctx context.Context, f store.AuditFilter, last store.AuditEntry, want int) (Window, error) {
	return j.older(ctx, f, boundBelow(&last), want)
}

// boundBelow is the bound below last (nil: none, from the newest).
func boundBelow(last *store.AuditEntry) bound {
	if last == nil {
		return bound{}
	}
	b := bound{at: last.At()}
	if last.Seq == 0 {
		b.id = last.ID
	}
	return b
}

// bound is where an older window ends: strictly before at in the mirror's
// order (time, then Seq); with id, strictly before the entry id in the
// service's (ids ascending), whose time is at.Time. The listing lets an
// entry's time lie up to api.AuditTimeSlack before one listed ahead of it
// (CheckAuditOrder), so every entry before id is dated before until().
type bound struct {
	at store.AuditPosition
	id string
}

func (b bound) until() time.Time {
	if b.id == "" {
		return b.at.Time
	}
	return b.at.Time.Add(api.AuditTimeSlack + time.Nanosecond)
}

// admits says e lies before b (always, when b is a position: the read
// itself stops there).
func (b bound) admits(e store.AuditEntry) bool {
	return b.id == "" || strings.ToLower(e.ID) < strings.ToLower(b.id)
}

func (j *Job) older(ctx context.Context, f store.AuditFilter, b bound, want int) (Window, error) {
	var wk *walk
	return j.olderWith(ctx, f, b, want, want, &wk, false)
}

// olderWith is older continuing *wk (left: the entries still wanted in
// all, beyond this window's want), the service's walk of the windows
// before (nil: none yet, and one is started): what it read and has not
// handed out comes first, with no request; the mirror answers where it
// reaches; the walk goes on below otherwise, where it stands. all says
// every entry is wanted (the walk's stretches are then sized for it).
func (j *Job) olderWith(ctx context.Context, f store.AuditFilter, b bound, want, left int, wk **walk, all bool) (Window, error) {
	floor := f.Since
	if b.at.IsZero() && !f.Until.IsZero() {
		b.at.Time = f.Until
	}
	f.After, f.Before, f.Newest, f.Limit, f.Since, f.Until = store.AuditPosition{}, store.AuditPosition{}, false, 0, time.Time{}, time.Time{}
	if want <= 0 {
		want = 1
	}
	if *wk != nil && len((*wk).pend) > 0 {
		(*wk).left = max(want, left)
		return (*wk).next(ctx, want)
	}
	if *wk != nil && (*wk).done && (*wk).atMirror {
		b, *wk = (*wk).handover(), nil
	}
	var mirrorAt time.Time
	asked := 0 // the mirror's tail, asked of the service when it did not answer
	if j.Mirror != nil {
		w, ok, err := j.olderFromMirror(ctx, f, b, floor, want)
		if err != nil || ok {
			return w, err
		}
		asked = w.Requests
		if st := w.MirrorState; st.Started() && st.Cursor != "" && !st.Last.IsZero() {
			// Entries at Last itself may not all be in: the walk reads
			// down to a little before it, the mirror the rest.
			mirrorAt = st.Last.Add(-2 * api.AuditTimeSlack)
		}
	}
	if *wk == nil {
		*wk = j.newWalk(f, b, floor, all)
		(*wk).mirrorAt = mirrorAt
	}
	(*wk).left = max(want, left)
	w, err := (*wk).next(ctx, want)
	w.Requests += asked
	return w, err
}

// olderFromMirror answers from the mirror when it reaches: ok is false
// when the service must be asked instead (no mirror yet, a range past it,
// or a tail longer than one page, which a sync will bring).
func (j *Job) olderFromMirror(ctx context.Context, f store.AuditFilter, b bound, floor time.Time, want int) (Window, bool, error) {
	var w Window
	log, _, err := LogOf(ctx, j.Svc)
	if err != nil {
		return w, false, err
	}
	st, err := j.Mirror.AuditState(ctx, log)
	if err != nil || !st.Started() {
		return w, false, err
	}
	tailMore := false // the tail alone filled the window, and has more
	if b.at.IsZero() {
		// The newest: the mirror up to its cursor, and the service's tail
		// after it, when that tail is one short page.
		if st.Cursor != "" {
			// of f's type only, when it has one: a tail of thousands of
			// entries holding a few of the type is then one short page
			page, err := j.Svc.AuditPage(ctx, st.Cursor, api.MaxAuditTake, askType(f))
			w.Requests++
			if err != nil {
				return w, false, err
			}
			if page.Full {
				w.MirrorState = st
				return w, false, nil
			}
			for i := len(page.Entries) - 1; i >= 0 && !tailMore; i-- {
				if e := EntryOf(page.Entries[i]); f.Match(e) && !e.Time.Before(floor) {
					if tailMore = len(w.Entries) == want; !tailMore {
						w.Entries = append(w.Entries, e)
					}
				}
			}
		}
	} else if b.at.Seq == 0 && !st.Covers(b.until()) {
		// A position from the mirror (Seq set) is inside it: everything
		// before it is held. A bare time must be inside its reach.
		w.MirrorState = st
		return w, false, nil
	}
	mf := f
	mf.Newest, mf.Before, mf.Since = true, b.at, floor
	if b.id != "" {
		mf.Before = store.AuditPosition{Time: b.until()}
	}
	seen := map[string]bool{}
	for _, e := range w.Entries {
		seen[e.ID] = true
	}
	// one more than fits says whether older entries remain: asked even
	// when the tail filled the window (room 1), or a window of the tail
	// alone over a mirror still syncing said it was the log's start
	room := want - len(w.Entries) + 1
	var got []store.AuditEntry
	if !tailMore {
		err = j.Mirror.AuditEntries(ctx, log, mf, func(e store.AuditEntry) error {
			if seen[e.ID] || !b.admits(e) {
				return nil
			}
			if got = append(got, e); len(got) >= room {
				return errEnough
			}
			return nil
		})
		if err != nil && !errors.Is(err, errEnough) {
			return w, false, err
		}
	}
	w.Start = !tailMore && len(got) < room
	if len(got) > want-len(w.Entries) {
		got = got[:want-len(w.Entries)]
	}
	w.Entries = append(w.Entries, got...)
	w.Mirror = w.Requests == 0
	w.MirrorState = st
	return w, true, nil
}

func minTime(a, b time.Time) time.Time {
	if a.After(b) {
		return b
	}
	return a
}

// reachOfSearch is how far back the service's search answers, less the
// margin that keeps clock skew from turning a search into a 400.
func reachOfSearch() time.Duration { return api.AuditSearchReach - searchMargin }

// IsOwnRead says e is a read of the audit log by the user self (the
// token's user, from whoami): the trace a reader leaves by reading.
func IsOwnRead(e store.AuditEntry, self string) bool {
	return e.Type == "api:audit_log_fetch" && self != "" && strings.EqualFold(e.User, self)
}

// MirrorWindow is up to want entries of the mirror alone that pass f and
// are older than before (zero: its newest), newest first, with no request:
// the console's filters answer from it at once. Entries after the mirror's
// cursor are not in it until the next sync.
func MirrorWindow(ctx context.Context, m Mirror, log string, f store.AuditFilter, before store.AuditPosition, want int) (Window, error) {
	f.After, f.Since, f.Until = store.AuditPosition{}, time.Time{}, time.Time{}
	f.Newest, f.Before, f.Limit = true, before, want+1
	var w Window
	err := m.AuditEntries(ctx, log, f, func(e store.AuditEntry) error {
		w.Entries = append(w.Entries, e)
		return nil
	})
	w.Start = len(w.Entries) <= want
	if len(w.Entries) > want {
		w.Entries = w.Entries[:want]
	}
	w.Mirror = true
	return w, err
}

// Interactive is j for reads a person waits for (the console's windows and
// jumps): its requests are not spread evenly over the budget's minute as a
// sync's are, since a window is a few requests and a person is waiting.
// The client's own budget still holds them to the organisation's limit.
func (j *Job) Interactive() *Job {
	c := *j
	c.Svc = unpaced{j.Svc}
	return &c
}

// unpaced reports the budget as unlimited to the job's pacer only.
type unpaced struct{ Service }

func (u unpaced) Budget(cat api.Category) api.BudgetStatus {
	b := u.Service.Budget(cat)
	b.Unlimited = true
	return b
}
