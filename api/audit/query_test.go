package audit_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

func collect(t *testing.T, j *audit.Job, f store.AuditFilter) ([]string, audit.Answer) {
	t.Helper()
	var ids []string
	a, err := j.Query(context.Background(), f, func(e store.AuditEntry) error {
		ids = append(ids, e.ID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids, a
}

// TestQueryFromMirrorOrService: the same questions answered by the
// service (search, then pages; or from the earliest entry beyond its
// year) and by a synced mirror (no request at all when it covers the
// range; the service after its cursor when it does not) give the same
// entries, and the answer says which.
func TestQueryFromMirrorOrService(t *testing.T) {
	for name, open := range mirrors(t) {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, sim.Options{Seed: 7, NoRateLimit: true, AuditEntries: 6000}, nil)
			now := r.sim.Now()
			// a user and an address that occur in the seeded log
			first, err := r.client.AuditSearch(context.Background(), now.Add(-10*24*time.Hour), "")
			if err != nil || first == nil {
				t.Fatal(err)
			}
			user, ip := first.Value.User, first.Value.IP
			questions := []store.AuditFilter{
				{Since: now.Add(-10 * 24 * time.Hour), Until: now.Add(-2 * 24 * time.Hour), User: strings.ToUpper(user)},
				{Since: now.Add(-10 * 24 * time.Hour), Until: now.Add(-24 * time.Hour), IP: ip},
				{Since: now.Add(-13 * 30 * 24 * time.Hour), Until: now.Add(-11 * 30 * 24 * time.Hour), Type: "auth:login"}, // beyond search's year
				{Since: now.Add(-5 * 24 * time.Hour), Until: now.Add(-4 * 24 * time.Hour), Grep: "OUTLOOK"},
			}
			svc := &audit.Job{Svc: r.client}
			var want [][]string
			for i, f := range questions {
				ids, a := collect(t, svc, f)
				if len(ids) == 0 {
					t.Fatalf("question %d has no answer to compare", i)
				}
				if a.Mirror || !a.Service {
					t.Fatalf("question %d without a mirror: %+v", i, a)
				}
				if wantHow := map[bool]string{true: "earliest", false: "search"}[i == 2]; a.How != wantHow {
					t.Errorf("question %d was read by %q, want %q", i, a.How, wantHow)
				}
				want = append(want, ids)
			}
			m := open()
			j := &audit.Job{Svc: r.client, Mirror: m}
			if _, err := j.Sync(context.Background()); err != nil {
				t.Fatal(err)
			}
			for i, f := range questions {
				before := r.requests.Load()
				ids, a := collect(t, j, f)
				if !slices.Equal(ids, want[i]) {
					t.Errorf("question %d: the mirror answered %d entries, the service %d", i, len(ids), len(want[i]))
				}
				if !a.Mirror || a.Service || r.requests.Load() != before {
					t.Errorf("question %d: %+v, %d requests", i, a, r.requests.Load()-before)
				}
				if !strings.Contains(a.String(), "from the local mirror") {
					t.Errorf("question %d says %q", i, a)
				}
			}
			// Newest first, with a limit, from the mirror
			ids, _ := collect(t, j, store.AuditFilter{User: user, Newest: true, Limit: 3, Until: now.Add(-time.Hour)})
			all, _ := collect(t, j, store.AuditFilter{User: user, Until: now.Add(-time.Hour)})
			slices.Reverse(all)
			if !slices.Equal(ids, all[:3]) {
				t.Errorf("newest three = %v, want %v", ids, all[:3])
			}
			// beyond the mirror: new entries arrive; the mirror answers up to
			// its cursor and the service after it
			r.sim.SetAuditTrickle(60)
			r.sim.Advance(10 * time.Minute)
			r.sim.SetAuditTrickle(0) // writes the ten minutes' entries, then no more
			ids, a := collect(t, j, store.AuditFilter{Since: now.Add(-time.Hour)})
			if !a.Mirror || !a.Service || a.Requests == 0 {
				t.Errorf("open-ended question: %+v", a)
			}
			full := r.fullLog(t)
			at := slices.Index(full, ids[0])
			if len(ids) < 10 || at < 0 || at+len(ids) > len(full) || !slices.Equal(ids, full[at:at+len(ids)]) || len(full)-(at+len(ids)) > len(full)/1000+2 { // after them: fullLog's own reads
				t.Errorf("open-ended question answered %d entries, not the log's last ones in order (at %d of %d)", len(ids), at, len(full))
			}
		})
	}
}
