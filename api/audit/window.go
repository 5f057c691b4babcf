package audit

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// Window is a run of entries for a reader that starts at the newest (the
// console): the log is read backwards in windows, which the service cannot
// do (its listing only goes forward), so each window is found by time.
type Window struct {
	Entries []store.AuditEntry // newest first
	// Mirror: every entry came from the local mirror (no request for the
	// part it covers). Requests counts the audit requests made.
	Mirror   bool
	Requests int
	// Start: nothing older than the last entry passes the filter (the
	// beginning of the log was reached).
	Start bool
}

// firstSpan is the first stretch of log time read backwards from the
// service; each further stretch doubles, so a quiet log is crossed in a
// few searches and a busy one is not read a day at a time.
const firstSpan = time.Hour

// maxSpans bounds the stretches one Older call reads from the service:
// doubling from an hour, 14 reach past the service's year.
const maxSpans = 14

// Older returns up to want entries that pass f and are older than before
// (zero: from the newest), newest first. The mirror answers when it
// covers the range (for the newest, with the service's short tail after
// its cursor); otherwise the service is read in stretches of time going
// back (search, then pages), and beyond its one-year reach from its
// earliest entry. f's Since, Until, Newest, Limit and paging bounds are
// set here.
func (j *Job) Older(ctx context.Context, f store.AuditFilter, before store.AuditPosition, want int) (Window, error) {
	f.After, f.Before, f.Newest, f.Limit, f.Since, f.Until = store.AuditPosition{}, store.AuditPosition{}, false, 0, time.Time{}, time.Time{}
	if want <= 0 {
		want = 1
	}
	if j.Mirror != nil {
		w, ok, err := j.olderFromMirror(ctx, f, before, want)
		if err != nil || ok {
			return w, err
		}
	}
	return j.olderFromService(ctx, f, before.Time, want)
}

// olderFromMirror answers from the mirror when it reaches: ok is false
// when the service must be asked instead (no mirror yet, a range past it,
// or a tail longer than one page, which a sync will bring).
func (j *Job) olderFromMirror(ctx context.Context, f store.AuditFilter, before store.AuditPosition, want int) (Window, bool, error) {
	var w Window
	log, _, err := LogOf(ctx, j.Svc)
	if err != nil {
		return w, false, err
	}
	st, err := j.Mirror.AuditState(ctx, log)
	if err != nil || !st.Started() {
		return w, false, err
	}
	if before.IsZero() {
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
				return w, false, nil
			}
			for i := len(page.Entries) - 1; i >= 0 && len(w.Entries) < want; i-- {
				if e := EntryOf(page.Entries[i]); f.Match(e) {
					w.Entries = append(w.Entries, e)
				}
			}
		}
	} else if before.Seq == 0 && !st.Covers(before.Time) {
		// A position from the mirror (Seq set) is inside it: everything
		// before it is held. A bare time must be inside its reach.
		return w, false, nil
	}
	mf := f
	mf.Newest, mf.Before, mf.Limit = true, before, want-len(w.Entries)+1
	seen := map[string]bool{}
	for _, e := range w.Entries {
		seen[e.ID] = true
	}
	var got []store.AuditEntry
	if mf.Limit > 1 {
		err = j.Mirror.AuditEntries(ctx, log, mf, func(e store.AuditEntry) error {
			if !seen[e.ID] {
				got = append(got, e)
			}
			return nil
		})
		if err != nil {
			return w, false, err
		}
	}
	w.Start = len(got) < mf.Limit
	if len(got) > want-len(w.Entries) {
		got = got[:want-len(w.Entries)]
	}
	w.Entries = append(w.Entries, got...)
	w.Mirror = w.Requests == 0
	return w, true, nil
}

// olderFromService reads stretches of time going back from before (zero:
// now), each by Query (search within the service's year, the earliest
// entry beyond it), keeping the newest want entries of what it reads.
func (j *Job) olderFromService(ctx context.Context, f store.AuditFilter, before time.Time, want int) (Window, error) {
	var w Window
	svc := &Job{Svc: j.Svc, Clock: j.Clock, MaxRate: j.MaxRate} // no mirror: it was asked already
	now := j.clock().Now()
	end := before
	span := firstSpan
	for i := 0; i < maxSpans && len(w.Entries) < want; i++ {
		from := now
		if !end.IsZero() {
			from = end
		}
		since := from.Add(-span)
		if !since.After(now.Add(-reachOfSearch())) {
			since = time.Time{} // past the service's year: from its earliest entry
		}
		q := f
		q.Since, q.Until = since, end
		need := want - len(w.Entries)
		var got []store.AuditEntry
		a, err := svc.Query(ctx, q, func(e store.AuditEntry) error {
			got = append(got, e)
			if len(got) > 2*need { // keep the newest need without holding a whole year
				got = append(got[:0], got[len(got)-need:]...)
			}
			return nil
		})
		w.Requests += a.Requests
		if err != nil {
			return w, err
		}
		if len(got) > need {
			got = got[len(got)-need:]
		}
		slices.Reverse(got)
		w.Entries = append(w.Entries, got...)
		if since.IsZero() {
			w.Start = len(w.Entries) < want
			break
		}
		end = since
		span *= 2
	}
	return w, nil
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
