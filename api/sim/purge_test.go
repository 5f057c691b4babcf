package sim_test

import (
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestAnEntryLeavesTheBinAtItsPurgeTime: a deleted project stays in the
// recycle bin until its recycle_bin_purged_scheduled_at, and at that time
// on the simulator's clock (not a microsecond before) it leaves the bin and
// is gone for good: no listing, endpoint or helper knows it or its files.
// Seeded entries purge at their own times too, one by one.
func TestAnEntryLeavesTheBinAtItsPurgeTime(t *testing.T) {
	h := newHarness(t)
	p := h.projectByName("Ironbridge Capital — Refinancing")
	ids, err := h.sim.AddFiles(p.ID, []sim.FileSpec{{Name: "a.pdf", Status: "READY_TO_QUERY", Size: 10}})
	if err != nil {
		t.Fatal(err)
	}
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_project/"+p.ID, h.admin(), nil), 200)
	h.sim.Advance(sim.DeleteDelay)
	all := h.recycle("")
	if all.Items[0].ResourceID != p.ID {
		t.Fatalf("the deleted project is not the bin's newest entry: %+v", all.Items[0])
	}
	purgeAt, _ := time.Parse("2006-01-02T15:04:05.000000Z", all.Items[0].RecycleBinPurgedScheduledAt)
	// the seeded entries that purge before it, each at its own time
	soonest, _ := time.Parse("2006-01-02T15:04:05.000000Z", all.Items[len(all.Items)-1].RecycleBinPurgedScheduledAt)
	for _, it := range all.Items {
		at, _ := time.Parse("2006-01-02T15:04:05.000000Z", it.RecycleBinPurgedScheduledAt)
		if at.Before(soonest) {
			soonest = at
		}
	}
	h.sim.Advance(soonest.Sub(h.sim.Now()) - time.Microsecond)
	if n := h.recycle("").Total; n != all.Total {
		t.Fatalf("a microsecond before the first purge the bin holds %d, want %d", n, all.Total)
	}
	h.sim.Advance(time.Microsecond)
	if n := h.recycle("").Total; n != all.Total-1 {
		t.Fatalf("at the first purge time the bin holds %d, want %d", n, all.Total-1)
	}

	h.sim.Advance(purgeAt.Sub(h.sim.Now()) - time.Microsecond)
	if l := h.recycle(""); len(l.Items) == 0 || l.Items[0].ResourceID != p.ID {
		t.Fatalf("a microsecond before its purge the project left the bin: %d entries", l.Total)
	}
	h.sim.Advance(time.Microsecond)
	if l := h.recycle(""); l.Total != 0 {
		t.Fatalf("at its purge time (the last of the bin) the bin still holds %d: %+v", l.Total, l.Items[0])
	}
	for _, q := range h.sim.Projects() {
		if q.ID == p.ID {
			t.Fatalf("the purged project is still known: %+v", q)
		}
	}
	if _, ok := h.sim.File(ids[0]); ok {
		t.Fatal("the purged project's file is still known")
	}
	if got := h.getFiles(ids[0]); len(got) != 1 || got[0].Error == "" {
		t.Fatalf("get_files of the purged project's file: %+v", got)
	}
	mustStatus(t, h.get("/api/v1/vault/get_metadata/"+p.ID), 404)
	mustStatus(t, h.get("/api/v1/vault/projects/"+p.ID+"/users"), 404)
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_project/"+p.ID, h.admin(), nil), 404)
}
