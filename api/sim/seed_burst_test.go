package sim_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

func seededLog(t *testing.T, o sim.Options) []api.AuditEntry {
	t.Helper()
	o.NoRateLimit = true
	e := simtest.Start(t, simtest.Options{Sim: o})
	var out []api.AuditEntry
	if _, err := e.Client.Audit(api.AuditQuery{}).Each(context.Background(), func(x *api.AuditEntry, _ api.RawItem) error {
		out = append(out, *x)
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSeedPlantsABurst: AuditBurst puts exactly Count deletions from its
// address (after one sign-in from it) among the seeded entries, in time
// order, and nobody else ever used that address; without it the log is
// the one the seed always gave.
func TestSeedPlantsABurst(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	plain := seededLog(t, sim.Options{Seed: 3, Now: func() time.Time { return now }})
	planted := seededLog(t, sim.Options{Seed: 3, Now: func() time.Time { return now }, AuditBurst: sim.AuditBurst{Count: 30}})
	var dels, logins int
	for i, e := range planted {
		if i > 0 && e.Timestamp.Before(planted[i-1].Timestamp.Time) {
			t.Fatalf("entry %d goes back in time: %v after %v", i, e.Timestamp, planted[i-1].Timestamp)
		}
		if e.IP != sim.DefaultBurstIP {
			continue
		}
		switch e.Type {
		case sim.AuditAPIDeleteProject:
			dels++
			if e.Timestamp.Before(now.Add(-10*time.Hour)) || e.Timestamp.After(now.Add(-10*time.Hour+30*15*time.Second)) {
				t.Errorf("a deletion at %v, outside the burst", e.Timestamp)
			}
		case sim.AuditLogin:
			logins++
		default:
			t.Errorf("an entry of type %s from the burst's address", e.Type)
		}
	}
	if dels != 30 || logins != 1 {
		t.Fatalf("%d deletions and %d logins from %s; want 30 and 1", dels, logins, sim.DefaultBurstIP)
	}
	// the seed's own entries are untouched by the option (the audit reads
	// of the listing itself are the service's, and come after)
	own := func(es []api.AuditEntry) []string {
		var out []string
		for _, e := range es {
			if e.IP != sim.DefaultBurstIP && e.Type != sim.AuditAPIFetch {
				out = append(out, e.Timestamp.String()+string(e.Type)+e.User+e.IP)
			}
		}
		return out
	}
	if !slices.Equal(own(plain), own(planted)) {
		t.Fatal("planting a burst changed the seed's other entries")
	}
	if slices.ContainsFunc(plain, func(e api.AuditEntry) bool { return e.IP == sim.DefaultBurstIP }) {
		t.Fatalf("the plain seed already uses %s", sim.DefaultBurstIP)
	}
}
