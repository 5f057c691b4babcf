package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// userEntriesSince returns the entries after id that are not API calls.
func (h *harness) userEntriesSince(id string) []auditLog {
	h.t.Helper()
	page, st := h.auditPage(id, "1000")
	if st != 200 {
		h.t.Fatalf("page: %d", st)
	}
	var out []auditLog
	for _, e := range page {
		if !strings.HasPrefix(e.Type, "api:") {
			out = append(out, e)
		}
	}
	return out
}

// TestAuditTrickle: with a trickle of 3 a minute, ten simulated minutes add
// about thirty user entries, each at its own time inside those minutes and
// in order; the rate can be changed and stopped, and a long pause is capped.
func TestAuditTrickle(t *testing.T) {
	h := newHarness(t, func(o *sim.Options) { o.AuditTrickle = 3 })
	mark, _ := h.latest("")
	start := h.sim.Now()
	h.sim.Advance(10 * time.Minute)
	got := h.userEntriesSince(mark.ID)
	if len(got) < 20 || len(got) > 40 {
		t.Fatalf("%d user entries in 10 minutes at 3 a minute", len(got))
	}
	for i, e := range got {
		ts := parseNaive(t, e.Timestamp)
		if ts.Before(start) || ts.After(h.sim.Now()) {
			t.Fatalf("entry %d at %v, outside %v..%v", i, ts, start, h.sim.Now())
		}
		if i > 0 && e.ID <= got[i-1].ID {
			t.Fatal("not ascending")
		}
	}
	// Nothing new without time passing (reads alone add only their own).
	mark, _ = h.latest("")
	if n := len(h.userEntriesSince(mark.ID)); n != 0 {
		t.Fatalf("%d user entries without the clock moving", n)
	}
	// Stopped: time passes, nothing comes.
	h.sim.SetAuditTrickle(0)
	h.sim.Advance(time.Hour)
	if n := len(h.userEntriesSince(mark.ID)); n != 0 {
		t.Fatalf("%d user entries after stopping", n)
	}
	// Faster, and after a long pause only the last day is filled in.
	h.sim.SetAuditTrickle(60)
	mark, _ = h.latest("")
	h.sim.Advance(30 * 24 * time.Hour)
	first, _ := h.search(h.sim.Now().Add(-25*time.Hour), sim.AuditLogin)
	if ts := parseNaive(t, first.Timestamp); h.sim.Now().Sub(ts) > 24*time.Hour+time.Minute {
		t.Fatalf("trickle filled %v back after a pause", h.sim.Now().Sub(ts))
	}
	// Control endpoint: per_minute 0 stops.
	mustStatus(t, h.do("POST", "/_sim/audit_trickle", "", map[string]any{"per_minute": 0}), 200)
	mark, _ = h.latest("")
	h.sim.Advance(time.Hour)
	if n := len(h.userEntriesSince(mark.ID)); n != 0 {
		t.Fatalf("%d user entries after stopping through the control endpoint", n)
	}
	mustStatus(t, h.do("POST", "/_sim/audit_trickle", "", map[string]any{"per_minute": -1}), 400)
}
