package auditview

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TestRouteSpan: ":audit FROM..UNTIL TYPE ADDRESS" (what the activity
// view sends for a bar or a mark) lists exactly the entries of that span
// that pass the filter, newest first, and nothing around them.
func TestRouteSpan(t *testing.T) {
	opts := sim.Options{Seed: 5, AuditEntries: 2000, AuditBurst: sim.AuditBurst{Count: 25}}
	probe := newRig(t, opts, false, "")
	from, until := simNow.Add(-11*time.Hour), simNow.Add(-9*time.Hour)
	var want []string
	for _, e := range probe.log() {
		if !e.Timestamp.Before(from) && e.Timestamp.Before(until) && string(e.Type) == sim.AuditAPIDeleteProject && e.IP == sim.DefaultBurstIP {
			want = append([]string{e.ID}, want...)
		}
	}
	if len(want) != 25 {
		t.Fatalf("the probe found %d planted deletions", len(want))
	}
	r := newRig(t, opts, false, from.Format(time.RFC3339Nano)+".."+until.Format(time.RFC3339Nano)+" "+sim.AuditAPIDeleteProject+" "+sim.DefaultBurstIP)
	r.run(r.m.Init())
	if len(r.m.entries) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(r.m.entries), len(want), strings.Join(r.rows(), "\n"))
	}
	for i, e := range r.m.entries {
		if e.ID != want[i] {
			t.Fatalf("row %d is %s, want %s", i, e.ID, want[i])
		}
	}
	if _, err := parseRoute("2026-11-02..2026-11-01", simNow); err == nil {
		t.Error("a span that ends before it starts was taken")
	}
}

// TestActivityKey: S in the audit view opens the activity view.
func TestActivityKey(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 100}, false, "")
	r.run(r.m.Init())
	_, cmd := r.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("S")})
	if cmd == nil {
		t.Fatal("S did nothing")
	}
	if o, ok := cmd().(page.Open); !ok || o.Route != "activity" {
		t.Fatalf("S sent %#v", cmd())
	}
}
