package audit_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestStatsSQLMatchesTheScan: on random logs (users spelled with and
// without capitals, addresses usual and new, office hours and nights,
// bursts of deletions across bucket edges, instants shared by several
// entries, entries outside the range and its lookback, a type asked or
// not, by hour or by day), the statistics read as SQL counts equal the
// scan of every entry that computed them before (ReferenceStats): the
// same bars, totals, addresses, marks in the same order with the same
// words. The top users and types are compared ignoring case: the mirror
// counts "Ann@x" and "ann@x" as one user, as its filters select them.
func TestStatsSQLMatchesTheScan(t *testing.T) {
	seen := map[audit.MarkKind]int{}
	for seed := range uint64(24) {
		rng := rand.New(rand.NewPCG(seed, 27))
		r, all := randomLog(rng)
		from := r.Since.Add(-audit.HistoryLookback)
		var hist, in []store.AuditEntry
		for _, e := range all {
			switch {
			case !e.Time.Before(from) && e.Time.Before(r.Since):
				hist = append(hist, e)
			case !e.Time.Before(r.Since) && e.Time.Before(r.Until):
				in = append(in, e)
			}
		}
		want, err := audit.ReferenceStats(r, hist, in)
		if err != nil {
			t.Fatal(err)
		}
		// the mirror holds the whole log, outside the range too
		got, err := audit.ComputeStats(t, r, all, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range want.Marks {
			seen[m.Kind]++
		}
		name := fmt.Sprintf("seed %d (%s, type %q, %d entries)", seed, r.Describe(), r.Type, len(all))
		if !reflect.DeepEqual(got.Buckets, want.Buckets) || got.Total != want.Total || got.Counted != want.Counted {
			t.Errorf("%s: bars or totals differ: total %d/%d counted %d/%d\n got %v\nwant %v", name, got.Total, want.Total, got.Counted, want.Counted, got.Buckets, want.Buckets)
		}
		if !reflect.DeepEqual(got.IPs, want.IPs) {
			t.Errorf("%s: addresses %v, want %v", name, got.IPs, want.IPs)
		}
		if g, w := folded(got.Users), folded(want.Users); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: users %v, want %v", name, g, w)
		}
		if g, w := folded(got.Types), folded(want.Types); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: types %v, want %v", name, g, w)
		}
		if !reflect.DeepEqual(got.Marks, want.Marks) || got.MoreMarks != want.MoreMarks {
			t.Errorf("%s: marks differ (%d more / %d more)\n got %s\nwant %s", name, got.MoreMarks, want.MoreMarks, marksText(got.Marks), marksText(want.Marks))
		}
	}
	// the logs must make every kind of mark, or the comparison proves little
	for _, k := range []audit.MarkKind{audit.MarkBurst, audit.MarkNewAddress, audit.MarkOddHour} {
		if seen[k] < 3 {
			t.Errorf("the random logs made %d %s marks; the generator no longer exercises them", seen[k], k)
		}
	}
}

// randomLog is a range and a log around it, oldest first.
func randomLog(rng *rand.Rand) (audit.StatsRange, []store.AuditEntry) {
	since := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(24*60)) * time.Minute)
	r := audit.StatsRange{Since: since, Until: since.Add(time.Duration(12+rng.IntN(60)) * time.Hour), By: time.Hour}
	if rng.IntN(3) == 0 {
		r.By = 24 * time.Hour
	}
	const del, exp, login = "api:vault_delete_project", "user:export_matter", "auth:login"
	types := []string{login, "user:word_add_in_docx_drafting", "admin:fetch_workspace_users", del, exp}
	switch rng.IntN(4) {
	case 0:
		r.Type = "AUTH:login"
	case 1:
		r.Type = del
	}
	users := []string{"ann", "bob", "cy", "dee", "eve"}
	spell := func(u string) string {
		if rng.IntN(4) == 0 {
			return strings.ToUpper(u[:1]) + u[1:] + "@Firm.test"
		}
		return u + "@firm.test"
	}
	typ := func() string {
		t := types[rng.IntN(len(types))]
		if rng.IntN(6) == 0 {
			t = strings.ToUpper(t)
		}
		return t
	}
	usualIP := func(u int) string { return fmt.Sprintf("10.0.%d.%d", u, rng.IntN(2)) }
	var es []store.AuditEntry
	add := func(at time.Time, typ string, u int, ip string) {
		es = append(es, store.AuditEntry{Time: at, Type: typ, User: spell(users[u]), IP: ip})
	}
	from := r.Since.Add(-audit.HistoryLookback)
	// the lookback: office hours (09:00 to 17:00) on most days for the
	// first three users, any hour for the others; a little before it
	for d := 0; d < 28; d++ {
		day := from.Truncate(24 * time.Hour).Add(time.Duration(d) * 24 * time.Hour)
		for u := range users {
			for range rng.IntN(5) {
				h := 9 + rng.IntN(8)
				if u >= 3 {
					h = rng.IntN(24)
				}
				add(day.Add(time.Duration(h)*time.Hour+time.Duration(rng.IntN(3600))*time.Second), typ(), u, usualIP(u))
			}
		}
	}
	for range 5 {
		add(from.Add(-time.Duration(1+rng.IntN(100))*time.Hour), typ(), rng.IntN(len(users)), usualIP(0))
	}
	// the range: on a grid of 30 seconds, so instants are shared; now and
	// then at night or from a new address
	span := r.Until.Sub(r.Since)
	for range 150 + rng.IntN(300) {
		u := rng.IntN(len(users))
		at := r.Since.Add(time.Duration(rng.Int64N(int64(span/(30*time.Second)))) * 30 * time.Second)
		ip := usualIP(u)
		if rng.IntN(25) == 0 {
			ip = fmt.Sprintf("198.51.100.%d", rng.IntN(4))
		}
		add(at, typ(), u, ip)
	}
	// a burst: a login, then deletions or exports, perhaps across an hour
	for range rng.IntN(3) {
		u := rng.IntN(len(users))
		at := r.Since.Add(time.Duration(rng.Int64N(int64(span/time.Minute))) * time.Minute)
		ip := []string{usualIP(u), "203.0.113.77"}[rng.IntN(2)]
		add(at, login, u, ip)
		kind := []string{del, exp}[rng.IntN(2)]
		for k := range 6 + rng.IntN(40) {
			who := u
			if rng.IntN(10) == 0 {
				who = rng.IntN(len(users))
			}
			add(at.Add(time.Duration(1+k/3)*30*time.Second), kind, who, ip)
		}
	}
	for range 5 {
		add(r.Until.Add(time.Duration(rng.IntN(100))*time.Hour), typ(), rng.IntN(len(users)), usualIP(1))
	}
	slices.SortStableFunc(es, func(a, b store.AuditEntry) int { return a.Time.Compare(b.Time) })
	return r, es
}

// folded is a top list with names ignoring case, their counts summed.
func folded(ts []audit.Tally) map[string]int {
	out := map[string]int{}
	for _, t := range ts {
		out[strings.ToLower(t.Name)] += t.Count
	}
	return out
}

func marksText(ms []audit.Mark) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "\n  %s %s..%s %s %s %s %d: %s", m.Kind, m.Start.Format("01-02 15:04:05"), m.End.Format("15:04:05"), m.Type, m.User, m.IP, m.Count, m.Why)
	}
	return b.String()
}
