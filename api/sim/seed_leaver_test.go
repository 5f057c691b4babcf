package sim_test

import (
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestSeedLeaverChangesNothingElse: planting the leaver moves no other
// seeded value: the projects, and every audit entry but the planted one,
// are those of the seed without it.
func TestSeedLeaverChangesNothingElse(t *testing.T) {
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	plain, with := sim.New(sim.Options{Now: clock}), sim.New(sim.Options{Now: clock, Leaver: true})
	if plain.Leaver() != "" || with.Leaver() == "" {
		t.Fatalf("Leaver() = %q without, %q with the option", plain.Leaver(), with.Leaver())
	}
	a, b := plain.Projects(), with.Projects()
	if len(a) != len(b) {
		t.Fatalf("%d projects without the leaver, %d with", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("project %d: %+v without, %+v with", i, a[i], b[i])
		}
	}
	ea, eb := plain.AuditEntries(), with.AuditEntries()
	if len(eb) != len(ea)+1 {
		t.Fatalf("%d audit entries without, %d with: want one planted login", len(ea), len(eb))
	}
	j := 0
	for _, e := range eb {
		if e.IP == sim.LeaverIP {
			if e.User != with.Leaver() || e.Type != sim.AuditLogin {
				t.Errorf("planted entry %+v", e)
			}
			continue
		}
		if e.ID != ea[j].ID || e.User != ea[j].User || e.IP != ea[j].IP {
			t.Fatalf("entry %d moved: %+v, want %+v", j, e, ea[j])
		}
		j++
	}
}
