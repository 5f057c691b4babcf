package audit_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

var statsDay = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

func fact(at time.Time, typ, user, ip string) store.AuditEntry {
	return store.AuditEntry{Time: at, Type: typ, User: user, IP: ip}
}

func marksOf(s audit.Stats, k audit.MarkKind) []audit.Mark {
	var out []audit.Mark
	for _, m := range s.Marks {
		if m.Kind == k {
			out = append(out, m)
		}
	}
	return out
}

// TestStatsBuckets: one bar per hour of the range (empty ones too, the
// first and last clipped to it), --type narrows the bars and the top
// users but not the total nor the types' tally.
func TestStatsBuckets(t *testing.T) {
	since := statsDay.Add(30 * time.Minute)
	var es []store.AuditEntry
	for i := range 6 {
		es = append(es, fact(since.Add(time.Duration(i)*20*time.Minute), "auth:login", "ann@firm.test", "10.0.0.1"))
	}
	es = append(es, fact(since.Add(2*time.Hour), "user:outlook_add_in_ask", "bob@firm.test", "10.0.0.2"))
	s, err := audit.ComputeStats(t, audit.StatsRange{Since: since, Until: since.Add(3 * time.Hour), By: time.Hour, Type: "AUTH:LOGIN"}, nil, es)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{2, 3, 1, 0}
	if len(s.Buckets) != len(want) {
		t.Fatalf("%d buckets, want %d: %+v", len(s.Buckets), len(want), s.Buckets)
	}
	for i, b := range s.Buckets {
		if b.Count != want[i] {
			t.Errorf("bucket %d (%v): %d, want %d", i, b.Start, b.Count, want[i])
		}
	}
	if !s.Buckets[0].Start.Equal(since) || !s.Buckets[3].End.Equal(since.Add(3*time.Hour)) || !s.Buckets[1].Start.Equal(statsDay.Add(time.Hour)) {
		t.Errorf("bucket edges: %+v", s.Buckets)
	}
	if s.Total != 7 || s.Counted != 6 || len(s.Users) != 1 || len(s.Types) != 2 || s.Types[0] != (audit.Tally{Name: "auth:login", Count: 6}) {
		t.Errorf("total %d counted %d users %v types %v", s.Total, s.Counted, s.Users, s.Types)
	}
	if f := s.Filter(1); !f.Since.Equal(statsDay.Add(time.Hour)) || !f.Until.Equal(statsDay.Add(2*time.Hour)) || f.Type != "AUTH:LOGIN" {
		t.Errorf("bucket 1's filter: %+v", f)
	}
	if _, err := audit.ComputeStats(t, audit.StatsRange{Since: since, Until: since, By: time.Hour}, nil, nil); err == nil {
		t.Error("an empty range was accepted")
	}
}

// TestStatsBurst: a bucket is a burst for a deletion type when its count
// reaches the floor and passes BurstFactor times the type's median per
// bucket; the mark's filter names the bucket, the type and the one
// address; below the floor, or within the factor of a busy median,
// nothing stands out.
func TestStatsBurst(t *testing.T) {
	const del = "api:vault_delete_project"
	r := audit.StatsRange{Since: statsDay, Until: statsDay.Add(24 * time.Hour), By: time.Hour}
	background := func(perHour int) []store.AuditEntry {
		var es []store.AuditEntry
		for h := range 24 {
			for k := range perHour {
				es = append(es, fact(statsDay.Add(time.Duration(h)*time.Hour+time.Duration(k)*time.Minute), del, "ops@firm.test", "10.0.0.9"))
			}
		}
		return es
	}
	burst := func(n int) []store.AuditEntry {
		var es []store.AuditEntry
		for k := range n {
			es = append(es, fact(statsDay.Add(3*time.Hour+30*time.Minute+time.Duration(k)*time.Second), del, "eve@firm.test", "203.0.113.7"))
		}
		return es
	}
	for _, c := range []struct {
		name    string
		entries []store.AuditEntry
		marked  int
	}{
		{"floor reached, quiet type", burst(audit.BurstFloor), audit.BurstFloor},
		{"below the floor", burst(audit.BurstFloor - 1), 0},
		{"within the factor of a busy type", merge(background(3), burst(audit.BurstFactor*3-3)), 0},
		{"past the factor of a busy type", merge(background(3), burst(audit.BurstFactor*3-2)), audit.BurstFactor*3 - 2 + 3},
	} {
		s, err := audit.ComputeStats(t, r, nil, c.entries)
		if err != nil {
			t.Fatal(err)
		}
		ms := marksOf(s, audit.MarkBurst)
		if c.marked == 0 {
			if len(ms) != 0 {
				t.Errorf("%s: marked %+v", c.name, ms)
			}
			continue
		}
		if len(ms) != 1 || ms[0].Count != c.marked || !ms[0].Start.Equal(statsDay.Add(3*time.Hour)) || !ms[0].End.Equal(statsDay.Add(4*time.Hour)) || ms[0].Type != del {
			t.Fatalf("%s: marks %+v, want one of %d at 03:00", c.name, ms, c.marked)
		}
		// the entries behind the mark are exactly the bucket's deletions
		n := 0
		for _, e := range c.entries {
			if ms[0].Filter().Match(e) {
				n++
			}
		}
		if n != c.marked {
			t.Errorf("%s: the mark's filter selects %d entries, want %d", c.name, n, c.marked)
		}
		if len(c.entries) == audit.BurstFloor && (ms[0].IP != "203.0.113.7" || ms[0].User != "eve@firm.test") {
			t.Errorf("%s: a burst from one address of one user names neither: %+v", c.name, ms[0])
		}
	}
}

func merge(a, b []store.AuditEntry) []store.AuditEntry {
	out := append(append([]store.AuditEntry{}, a...), b...)
	// oldest first, as the mirror hands them
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Time.Before(out[j-1].Time); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// TestStatsNewAddress: a settled user's login from an address never seen
// before (in the lookback or earlier in the range) is marked once; a user
// on a fresh address at every entry is not.
func TestStatsNewAddress(t *testing.T) {
	since := statsDay
	var hist []store.AuditEntry
	for i := range 12 {
		at := since.Add(-time.Duration(12-i) * time.Hour)
		hist = append(hist, fact(at, "auth:login", "ann@firm.test", fmt.Sprintf("10.0.0.%d", 1+i%2)))
		hist = append(hist, fact(at.Add(time.Minute), "auth:login", "roam@firm.test", fmt.Sprintf("10.9.%d.1", i)))
	}
	es := []store.AuditEntry{
		fact(since.Add(time.Hour), "auth:login", "ann@firm.test", "10.0.0.2"),       // known
		fact(since.Add(2*time.Hour), "auth:login", "ANN@firm.test", "198.51.100.4"), // new: marked
		fact(since.Add(3*time.Hour), "auth:login", "ann@firm.test", "198.51.100.4"), // seen now
		fact(since.Add(4*time.Hour), "auth:login", "roam@firm.test", "10.9.99.1"),   // unsettled
	}
	s, err := audit.ComputeStats(t, audit.StatsRange{Since: since, Until: since.Add(24 * time.Hour), By: time.Hour}, hist, es)
	if err != nil {
		t.Fatal(err)
	}
	ms := marksOf(s, audit.MarkNewAddress)
	if len(ms) != 1 || ms[0].IP != "198.51.100.4" || !ms[0].Start.Equal(since.Add(2*time.Hour)) {
		t.Fatalf("new-address marks: %+v", ms)
	}
	n := 0
	for _, e := range es {
		if ms[0].Filter().Match(e) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the mark's filter selects %d entries, want the one login", n)
	}
}

// TestStatsOddHour: a regular user (enough entries on enough days) active
// at an hour of the day they never were is marked, one mark per user and
// hour; their usual hours, a user with too few entries and one busy at
// every hour are not.
func TestStatsOddHour(t *testing.T) {
	since := statsDay
	var hist []store.AuditEntry
	for d := range 10 {
		for h := 9; h < 14; h++ {
			hist = append(hist, fact(since.Add(-time.Duration(10-d)*24*time.Hour+time.Duration(h)*time.Hour), "user:word_add_in_docx_drafting", "ann@firm.test", "10.0.0.1"))
		}
	}
	hist = append(hist, fact(since.Add(-time.Hour), "auth:login", "new@firm.test", "10.0.0.3"))
	// a user as busy, at every hour: no hour is unusual for them
	for i := range 60 {
		hist = append(hist, fact(since.Add(-time.Duration(60-i)*5*time.Hour), "auth:login", "any@firm.test", "10.0.0.4"))
	}
	hist = merge(hist, nil)
	es := []store.AuditEntry{
		fact(since.Add(3*time.Hour+5*time.Minute), "auth:login", "ann@firm.test", "10.0.0.1"),
		fact(since.Add(3*time.Hour+9*time.Minute), "user:word_add_in_docx_drafting", "ann@firm.test", "10.0.0.1"),
		fact(since.Add(10*time.Hour), "auth:login", "ann@firm.test", "10.0.0.1"),
		fact(since.Add(4*time.Hour), "auth:login", "new@firm.test", "10.0.0.3"),
		fact(since.Add(3*time.Hour), "auth:login", "any@firm.test", "10.0.0.4"),
	}
	s, err := audit.ComputeStats(t, audit.StatsRange{Since: since, Until: since.Add(24 * time.Hour), By: time.Hour}, hist, es)
	if err != nil {
		t.Fatal(err)
	}
	ms := marksOf(s, audit.MarkOddHour)
	if len(ms) != 1 || ms[0].User != "ann@firm.test" || ms[0].Count != 2 || !ms[0].Start.Equal(since.Add(3*time.Hour)) {
		t.Fatalf("odd-hour marks: %+v", ms)
	}
}

// TestStatsBurstAcrossABucketEdge: a burst does not stop at the clock's
// hour. Forty deletions from 03:53 to 04:06 fell 21 and 19 into two hourly
// buckets and made two marks, neither listing the burst whole (in tmux, a
// burst split 33 and 7 was one mark of 33: the 7 were under the floor).
// Adjacent buckets past the factor of the type's median are one burst,
// whose floor is reached by their sum.
func TestStatsBurstAcrossABucketEdge(t *testing.T) {
	const del = "api:vault_delete_project"
	r := audit.StatsRange{Since: statsDay, Until: statsDay.Add(24 * time.Hour), By: time.Hour}
	var es []store.AuditEntry
	for k := range 40 {
		es = append(es, fact(statsDay.Add(3*time.Hour+53*time.Minute+time.Duration(k)*20*time.Second), del, "eve@firm.test", "203.0.113.7"))
	}
	// a lone deletion of another hour is no part of it
	es = append(es, fact(statsDay.Add(9*time.Hour), del, "ops@firm.test", "10.0.0.9"))
	s, err := audit.ComputeStats(t, r, nil, es)
	if err != nil {
		t.Fatal(err)
	}
	ms := marksOf(s, audit.MarkBurst)
	if len(ms) != 1 || ms[0].Count != 40 || !ms[0].Start.Equal(statsDay.Add(3*time.Hour)) || !ms[0].End.Equal(statsDay.Add(5*time.Hour)) {
		t.Fatalf("marks %+v; want one of 40 from 03:00 to 05:00", ms)
	}
	n := 0
	for _, e := range es {
		if ms[0].Filter().Match(e) {
			n++
		}
	}
	if n != 40 || ms[0].IP != "203.0.113.7" || ms[0].User != "eve@firm.test" {
		t.Errorf("the mark selects %d entries (want the 40), names %q %q", n, ms[0].User, ms[0].IP)
	}
}
