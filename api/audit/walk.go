package audit

import (
	"context"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// The service lists only forward (ids ascending after a cursor) and finds
// a place only by time (search: the first entry at or after a second), so
// the log is read backwards in stretches: search a time T, list forward
// from the entry found up to where the stretch before began, hand those
// out newest first, and go on below T. A walk keeps where it stands
// between windows, so no stretch is read twice: each stretch ends at the
// id the one after it began with (not at a time: entries sharing an
// instant, or listed ahead but stamped up to api.AuditTimeSlack later, are
// neither lost nor repeated), and each next stretch is sized from the
// density the last one showed. A window that wants fewer entries than a
// stretch holds takes the newest and leaves the rest for the next window.
//
// The walk before this read each stretch to keep its newest thousand,
// restarted an hour wide for every window and re-read whatever overlapped:
// about four times each entry (issue 32).

const (
	// stretchAim is the entries a stretch aims at when all are wanted:
	// a few pages, so the page that runs past the stretch's end (entries
	// already read) is a small share of what is sent.
	stretchAim = 4 * api.MaxAuditTake
	// heldMost and heldBytesMost bound what a walk holds of a stretch
	// (entries that pass the filter, and their bytes as sent). A stretch
	// denser than its estimate (a burst sharing one second, which no
	// search can split) lets its oldest pages go and keeps their cursors:
	// each is listed again, exactly, when its turn comes.
	heldMost      = 2 * stretchAim
	heldBytesMost = 8 << 20
	// growMost is how much wider a stretch may be than the one before:
	// a few entries in an hour say little about the month before it, and
	// a quiet log is still crossed back to the service's year in a few
	// searches. A stretch that turns out far denser is given up after its
	// first page (read), so a wide guess costs a page, not the stretch.
	growMost = 32
)

// walk is a newest-first read of the service from a bound down to a floor.
type walk struct {
	svc   Service
	pace  *pacer
	clock api.Clock
	f     store.AuditFilter // type, user, address, text: no time bounds
	floor time.Time
	all   bool // every entry is wanted: stretches aim at stretchAim
	left  int  // else the entries still wanted in all (at least a window's)

	began  bool
	until  time.Time     // the first stretch ends at the first entry at or after it (zero: none)
	stopID string        // every entry from this id on was read ("": none yet)
	end    time.Time     // the next stretch ends here
	span   time.Duration // and starts this long before
	// density is the entries a second the last stretch listed (0: none
	// yet): what the next is expected to hold, so its pages ask for
	// about that many and not a full page from past its end.
	density  float64
	perMatch float64 // entries listed for each that passes the filter (1 until seen)
	narrowed bool    // the stretch was given up for a narrower one: not again
	done     bool    // the last stretch began at the log's start or the floor

	// mirrorAt (zero: no mirror) is a time the local mirror holds every
	// entry before: the walk ends there (atMirror) and the mirror answers
	// below it (handover).
	mirrorAt time.Time
	atMirror bool

	earliest      *api.Item[api.AuditEntry] // the log's first entry of the type, once asked
	earliestAsked bool

	pend     []segment // the stretch read, oldest first; the last is handed out next
	requests int
}

// segment is one page of a stretch (or its first entry, found by search).
type segment struct {
	entries []store.AuditEntry // those that pass the filter, oldest first
	loaded  bool               // false: let go, to be listed again
	matched int                // entries of it that pass the filter
	bytes   int
	// from, take, last list it again: take entries after from, the last
	// being last; exact: the service kept to the type asked, so take is
	// what it lists (else a full page is asked and cut at last).
	from, last string
	take       int
	exact      bool
}

// newWalk starts a walk below b (zero: from the newest) down to floor.
func (j *Job) newWalk(f store.AuditFilter, b bound, floor time.Time, all bool) *walk {
	w := &walk{svc: j.Svc, pace: newPacer(j.clock(), j.gap()), clock: j.clock(), f: f, floor: floor, all: all, span: firstSpan, perMatch: 1}
	switch {
	case b.id != "":
		w.stopID, w.end = b.id, b.until()
	case !b.at.Time.IsZero():
		w.until, w.end = b.at.Time, b.at.Time
	}
	return w
}

// next hands out up to want entries below the last one handed out, newest
// first; Start says nothing older remains.
func (w *walk) next(ctx context.Context, want int) (win Window, err error) {
	r0 := w.requests
	defer func() {
		win.Requests = w.requests - r0
		win.Start = err == nil && w.done && len(w.pend) == 0 && !w.atMirror
	}()
	for len(win.Entries) < want {
		if n := len(w.pend); n > 0 {
			s := &w.pend[n-1]
			if !s.loaded {
				if err := w.reload(ctx, s); err != nil {
					return win, err
				}
			}
			k := min(len(s.entries), want-len(win.Entries))
			for i := range k {
				win.Entries = append(win.Entries, s.entries[len(s.entries)-1-i])
			}
			if s.entries = s.entries[:len(s.entries)-k]; len(s.entries) == 0 {
				w.pend[n-1] = segment{}
				w.pend = w.pend[:n-1]
			}
			continue
		}
		if w.done {
			break
		}
		if err := w.stretch(ctx, max(want, w.left)-len(win.Entries)); err != nil {
			return win, err
		}
	}
	return win, nil
}

// handover is the bound below which the mirror answers once the walk has
// ended at it: below the last stretch's first entry (every entry listed
// before it is dated before the time searched, w.end).
func (w *walk) handover() bound {
	return bound{at: store.AuditPosition{Time: w.end}, id: w.stopID}
}

// pass says e is one the walk hands out.
func (w *walk) pass(e store.AuditEntry) bool {
	return w.f.Match(e) && !e.Time.Before(w.floor)
}

// ask spends one audit request.
func (w *walk) ask(ctx context.Context) error {
	w.requests++
	return w.pace.wait(ctx)
}

// stretch reads the next stretch back into w.pend (nothing, when it holds
// no entry), need being the entries the window still wants.
func (w *walk) stretch(ctx context.Context, need int) error {
	now := w.clock.Now()
	if !w.began {
		w.began = true
		if w.end.IsZero() && w.f.Type != "" {
			return w.fromLatest(ctx, now)
		}
		if w.end.IsZero() {
			w.end = now
		}
		if w.all && w.floor.IsZero() {
			// The walk must reach the log's start, which only the earliest
			// entry tells; it is then the last stretch's first entry, in
			// place of a search.
			if err := w.askEarliest(ctx); err != nil || w.done {
				return err
			}
		}
	}
	span := w.span
	at, last := w.end.Add(-span), false
	if m := w.mirrorAt; !m.IsZero() && !at.After(m) && m.After(w.floor) {
		// the mirror holds what is older: the walk stops there
		at, last, w.atMirror = m, true, true
	} else if !w.floor.IsZero() && !at.After(w.floor) {
		at, last = w.floor, true
	}
	if !at.After(now.Add(-reachOfSearch())) {
		at, last = w.floor, true // past the service's year: its earliest entry (or the floor, within reach)
	}
	var seed *api.Item[api.AuditEntry]
	if e := w.earliest; e != nil && !at.After(e.Value.Timestamp.Time) && !w.floor.After(e.Value.Timestamp.Time) {
		seed, last = e, true // before the log's first entry: start there, no search
	} else {
		it, err := w.find(ctx, at, now)
		if err != nil {
			return err
		}
		seed = it
	}
	listed, matched, err := 0, 0, error(nil)
	if w.below(seed) {
		expect := 0
		if w.density > 0 {
			expect = int(w.density*w.end.Sub(at).Seconds()) + 1
		}
		most := heldMost
		if !w.all {
			most = min(heldMost, int(2*w.aim(need)))
		}
		if w.narrowed {
			most = 0 // sized from a page of its own already: read it as it is
		}
		var dense float64
		listed, matched, dense, err = w.read(ctx, seed, expect, most)
		if err != nil {
			// what was read of the stretch is its oldest part: none of it
			// goes out; a next call reads the stretch again
			w.pend = w.pend[:0]
			return err
		}
		if dense > 0 {
			// Far denser than sized for: this stretch is given up after its
			// first page (its entries go, to be listed again if they are
			// reached) for a narrower one sized from what that page showed.
			w.pend, w.narrowed = w.pend[:0], true
			w.density = dense
			w.span = max(time.Duration(w.aim(need)/dense*float64(time.Second)), time.Second)
			return nil
		}
		w.stopID = seed.Value.ID
	}
	w.narrowed = false
	switch {
	case listed > 0:
		w.until = time.Time{}
	case w.stopID == "" && seed != nil:
		// Nothing before the bound here: the entry found (the first at
		// or after at) is at or past it, and what is older lies below.
		w.stopID, w.until = seed.Value.ID, time.Time{}
	case w.stopID == "":
		w.until = at // nothing at or after at at all
	}
	w.end = at
	if last {
		w.done = true
		return nil
	}
	if listed == 0 && !w.earliestAsked {
		// Nothing here: the log may not reach back this far. Its earliest
		// entry says where it starts (and is then the last stretch's seed).
		if err := w.askEarliest(ctx); err != nil || w.done {
			return err
		}
	}
	if matched > 0 {
		w.perMatch = float64(listed) / float64(matched)
	}
	w.span = nextSpan(span, listed, w.aim(need-matched))
	w.density = 0
	if listed > 0 {
		w.density = float64(listed) / span.Seconds()
	}
	return nil
}

// aim is the entries the next stretch should list: stretchAim when all
// are wanted; for a walk that wants need more, half again as many matches
// (at the share of matches the last stretch showed), never under a page's
// worth (a stretch is listed from its first entry by pages, and a smaller
// one costs as many requests).
func (w *walk) aim(need int) float64 {
	if w.all {
		return stretchAim
	}
	return min(stretchAim, max(1.5*float64(max(need, 1))*w.perMatch, api.MaxAuditTake))
}

// nextSpan sizes the next stretch from what the last one held: listed
// entries in span, aiming at aim; no more than growMost times wider, no
// less than the second a search can tell.
func nextSpan(span time.Duration, listed int, aim float64) time.Duration {
	grow := float64(growMost)
	if listed > 0 {
		grow = min(grow, aim/float64(listed))
	}
	return max(time.Duration(float64(span)*grow), time.Second)
}

// below says seed begins a stretch below where the walk stands.
func (w *walk) below(seed *api.Item[api.AuditEntry]) bool {
	switch {
	case seed == nil:
		return false
	case w.stopID != "":
		return strings.ToLower(seed.Value.ID) < strings.ToLower(w.stopID)
	case !w.until.IsZero():
		ts := seed.Value.Timestamp.Time
		return ts.IsZero() || ts.Before(w.until)
	}
	return true
}

// ends says it is at or past the end of the stretch being read.
func (w *walk) ends(it api.Item[api.AuditEntry]) bool {
	if w.stopID != "" {
		return strings.ToLower(it.Value.ID) >= strings.ToLower(w.stopID)
	}
	ts := it.Value.Timestamp.Time
	return !w.until.IsZero() && !ts.IsZero() && !ts.Before(w.until) // the listing ascends in time, as Query reads it
}

// fromLatest starts a walk of one type from the newest: its latest entry
// says where the type was last seen (one request, where an hour at a time
// back to a type last used months ago would be many).
func (w *walk) fromLatest(ctx context.Context, now time.Time) error {
	if err := w.ask(ctx); err != nil {
		return err
	}
	it, err := w.svc.AuditLatest(ctx, askType(w.f))
	if err != nil {
		return err
	}
	if it == nil || it.Value.Timestamp.Before(w.floor) {
		w.done = true // none of the type at all, or none since the floor
		return nil
	}
	e := EntryOf(*it)
	if w.pass(e) {
		w.pend = append(w.pend, segment{entries: []store.AuditEntry{e}, loaded: true, matched: 1})
	}
	// From its time, but never from the future: an entry dated years
	// ahead (a skewed or hostile service) would have every stretch search
	// where nothing is. Its id still bounds what is older.
	w.stopID = e.ID
	w.end = minTime(e.Time, now).Add(api.AuditTimeSlack + time.Nanosecond)
	return nil
}

// askEarliest learns where the log (of the type) starts; none at all, or
// none from the walk's stop on, ends the walk.
func (w *walk) askEarliest(ctx context.Context) error {
	if err := w.ask(ctx); err != nil {
		return err
	}
	it, err := w.svc.AuditEarliest(ctx, askType(w.f))
	if err != nil {
		return err
	}
	w.earliest, w.earliestAsked = it, true
	if it == nil || !w.below(it) {
		w.done = true
	}
	return nil
}

// find is the first entry (of the type) at or after at: by search within
// the service's year, else the log's earliest (as Query starts).
func (w *walk) find(ctx context.Context, at, now time.Time) (*api.Item[api.AuditEntry], error) {
	if at.IsZero() || !at.After(now.Add(-api.AuditSearchReach+searchMargin)) {
		if w.earliestAsked {
			return w.earliest, nil
		}
		err := w.askEarliest(ctx)
		return w.earliest, err
	}
	if err := w.ask(ctx); err != nil {
		return nil, err
	}
	return w.svc.AuditSearch(ctx, at, askType(w.f))
}
