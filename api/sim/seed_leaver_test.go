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

// TestSeedLeaverHasDirectSharesToRemove: the planted leaver reaches
// projects directly (removable through DELETE), one of them also through
// the workspace share (which stays after the removal), one at MANAGE, and
// owns the project where they are the only MANAGE.
func TestSeedLeaverHasDirectSharesToRemove(t *testing.T) {
	h := newHarness(t, func(o *sim.Options) { o.Leaver = true })
	who := h.sim.Leaver()
	direct := map[string]string{}
	for _, p := range h.sim.Projects() {
		if l, ok := h.directShares(p.ID)[who]; ok {
			direct[p.Name] = l
		}
	}
	if len(direct) < 4 {
		t.Fatalf("the leaver has %d direct shares (%v), want at least 4", len(direct), direct)
	}
	if direct[sim.LeaverWorkspaceShared] != "VIEW" || direct[sim.LeaverDirectManage] != "EDIT" {
		t.Fatalf("direct shares %v: want READ (VIEW) on %q and MANAGE (EDIT) on %q", direct, sim.LeaverWorkspaceShared, sim.LeaverDirectManage)
	}
	own := h.projectByName(sim.LeaverProjectName)
	for e, l := range h.access(own.ID) {
		if (l == "MANAGE") != (e == who) {
			t.Errorf("%s has %s on the leaver's own project: want the leaver its only MANAGE", e, l)
		}
	}
	ws := h.projectByName(sim.LeaverWorkspaceShared)
	if st, a := h.deleteUsers(h.admin(), ws.ID, who); st != 200 || len(a.Data.Removed) != 1 {
		t.Fatalf("removing the leaver's direct share: %d %+v", st, a)
	}
	if l := h.access(ws.ID)[who]; l != "READ" {
		t.Errorf("after the removal the leaver reaches %q with %q, want READ through the workspace share", sim.LeaverWorkspaceShared, l)
	}
}
