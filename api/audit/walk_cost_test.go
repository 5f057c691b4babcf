package audit_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// shapeEnd is where the shaped logs end; the clock stands a minute after.
var shapeEnd = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// shapes are the logs a newest-first listing must read about once: steady,
// in bursts of entries sharing one instant, sparse with gaps of months
// (past the service's year of search), and with times jittered.
func shapes() map[string]*shapeLog {
	rng := rand.New(rand.NewPCG(7, 32))
	return map[string]*shapeLog{
		"uniform":  newShapeLog(uniformTimes(shapeEnd, 6000, 10*time.Second), 500),
		"bursty":   newShapeLog(burstyTimes(shapeEnd, 6000, 1500, rng), 500),
		"sparse":   newShapeLog(sparseTimes(shapeEnd, 6000, rng), 500),
		"jittered": newShapeLog(jittered(uniformTimes(shapeEnd, 6000, 3*time.Second), rng), 500),
	}
}

// leastListed is the entries a reader must be sent at the least for the
// newest-first answer got (ids, newest first) to f: those the service lists
// (of f's type) from the second of the oldest one delivered, or from the
// start of f's range when the walk reached it, up to the end of the range.
func leastListed(l *shapeLog, f store.AuditFilter, got []string) int {
	upper := len(l.log)
	if !f.Until.IsZero() {
		upper = slices.IndexFunc(l.log, func(it apiItem) bool { return !it.Value.Timestamp.Before(f.Until) })
		if upper < 0 {
			upper = len(l.log)
		}
	}
	lower := 0
	if f.Limit > 0 && len(got) == f.Limit {
		// from the oldest delivered entry's second: no search finds a
		// place inside one
		i := slices.IndexFunc(l.log, func(it apiItem) bool { return it.Value.ID == got[len(got)-1] })
		sec := l.log[i].Value.Timestamp.Truncate(time.Second)
		lower = slices.IndexFunc(l.log, func(it apiItem) bool { return !it.Value.Timestamp.Before(sec) })
	} else if !f.Since.IsZero() && f.Since.After(shapeEnd.Add(-api.AuditSearchReach+2*time.Hour)) {
		// (a time past the service's year of search is read from its
		// earliest entry, forward as well)
		lower = max(slices.IndexFunc(l.log, func(it apiItem) bool { return !it.Value.Timestamp.Before(f.Since) }), 0)
	}
	n := 0
	for i := lower; i < upper; i++ {
		if ofType(l.log[i], f.Type) {
			n++
		}
	}
	return n
}

// TestNewestFirstReadsEachEntryAboutOnce: listing a log newest first sends
// each entry about once, whatever the log's shape or the filter: at most a
// quarter more than the entries a forward read of the same answer needs,
// plus one page, in requests near the fewest pages that carry them. The
// walk searched stretches of time back and kept the newest thousand of
// each, re-reading the rest, and started each window's stretches an hour
// wide again: a 6,000-entry log sent about 24,000 entries.
func TestNewestFirstReadsEachEntryAboutOnce(t *testing.T) {
	for name, l := range shapes() {
		mid := l.log[len(l.log)/2].Value.Timestamp.Time
		old := l.log[len(l.log)/5].Value.Timestamp.Time
		for _, f := range []store.AuditFilter{
			{},
			{Limit: 5},
			{Limit: 1500},
			{Type: "word:draft"},
			{Type: "auth:login", Limit: 40},
			{User: "rare@example.com"},
			{Until: mid},
			{Since: old, Until: mid},
			{Since: mid, Type: "api:audit_log_fetch"},
		} {
			t.Run(fmt.Sprintf("%s %+v", name, compact(f)), func(t *testing.T) {
				clock := newVirtualClock()
				clock.now = shapeEnd.Add(time.Minute)
				j := &audit.Job{Svc: l, Clock: clock}
				r0, s0 := l.costs()
				nf := f
				nf.Newest = true
				got, _ := collect(t, j, nf)
				r1, s1 := l.costs()
				requests, sent := r1-r0, s1-s0
				least := leastListed(l, f, got)
				if f.Limit > 0 && f.Limit < 1000 {
					// A few of the newest: the first stretch is an hour of
					// the log, read whole, whatever it holds.
					least = max(least, leastListed(l, store.AuditFilter{Type: f.Type, Since: shapeEnd.Add(time.Minute - time.Hour), Until: f.Until}, nil))
				}
				// the fewest requests: one to start (search or earliest),
				// then pages of 1,000
				fewest := 1 + least/1000
				t.Logf("%d entries delivered, %d listed at the least: %d sent, %d requests (fewest %d)", len(got), least, sent, requests, fewest)
				// A walk that stops at a limit stops inside a stretch sized
				// by a guess from the ones before (in bursts, a poor one):
				// a page more of room for it.
				most := least + least/4 + 1000
				if f.Limit > 0 {
					most += 1000
				}
				if sent > most {
					t.Errorf("%d entries sent for %d listed at the least (%.1f times): want at most %d", sent, least, float64(sent)/float64(max(least, 1)), most)
				}
				// crossing a year back from an hour wide, at most eight times
				// wider a stretch, is five stretches of two requests
				if most := fewest + fewest/2 + 12; requests > most {
					t.Errorf("%d requests where %d pages carry the entries: want at most %d", requests, fewest, most)
				}
			})
		}
	}
}

// compact is f's set fields, for a subtest's name.
func compact(f store.AuditFilter) string {
	s := ""
	if f.Type != "" {
		s += " type=" + f.Type
	}
	if f.User != "" {
		s += " user=" + f.User
	}
	if f.Limit > 0 {
		s += fmt.Sprintf(" limit=%d", f.Limit)
	}
	if !f.Since.IsZero() {
		s += " since"
	}
	if !f.Until.IsZero() {
		s += " until"
	}
	if s == "" {
		return "all"
	}
	return s[1:]
}
