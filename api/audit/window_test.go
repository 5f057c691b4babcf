package audit_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// serviceLog is the whole log as the service lists it, oldest first.
func serviceLog(t *testing.T, c *api.Client) []store.AuditEntry {
	t.Helper()
	var out []store.AuditEntry
	_, err := c.Audit(api.AuditQuery{}).Each(context.Background(), func(e *api.AuditEntry, raw api.RawItem) error {
		out = append(out, audit.EntryOf(api.Item[api.AuditEntry]{Value: *e, JSON: bytes.Clone(raw.Bytes)}))
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func idsOf(es []store.AuditEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

// newestOf is what Older must answer: the want newest entries of log that
// pass f and are older than before (zero: any), newest first.
func newestOf(log []store.AuditEntry, f store.AuditFilter, before time.Time, want int) []string {
	var out []string
	for i := len(log) - 1; i >= 0 && len(out) < want; i-- {
		e := log[i]
		if (before.IsZero() || e.Time.Before(before)) && f.Match(e) {
			out = append(out, e.ID)
		}
	}
	return out
}

// TestOlderReadsBackwards: the console's newest-first windows, from the
// service alone (stretches of time found by search) and from a synced
// mirror (no request except the tail after its cursor), are the log's
// newest entries in reverse, for all types and for a user, and older
// windows continue where the last one stopped.
func TestOlderReadsBackwards(t *testing.T) {
	clock := newVirtualClock()
	r := newRig(t, sim.Options{Seed: 3, NoRateLimit: true, AuditEntries: 3000}, clock)
	ctx := context.Background()
	mirror := mirrors(t)["store"]()
	synced := &audit.Job{Svc: r.client, Mirror: mirror, Clock: clock}
	if _, err := synced.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	// A little log after the sync: the mirror's tail is the service's.
	r.sim.Advance(10 * time.Minute)
	all := serviceLog(t, r.client)
	user := all[len(all)/2].User
	if _, err := synced.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	// the mirror first: the service's stretches leave reads of their own
	// in the log, which would be the mirror's whole tail
	for _, run := range []struct {
		name string
		j    *audit.Job
	}{{"mirror", synced}, {"service", &audit.Job{Svc: r.client, Clock: clock}}} {
		name, j := run.name, run.j
		for _, f := range []store.AuditFilter{{}, {User: user}} {
			w, err := j.Older(ctx, f, store.AuditPosition{}, 50)
			if err != nil {
				t.Fatal(err)
			}
			want := newestOf(serviceLog(t, r.client), f, time.Time{}, 50)
			// the reads of this test itself append entries: compare from
			// the window's first entry on
			if got := idsOf(w.Entries); len(got) != 50 || !slices.Equal(got[1:], want[len(want)-49:]) && !slices.Equal(got, want) {
				if i := slices.Index(want, got[0]); i < 0 || !slices.Equal(got[:min(len(got), len(want)-i)], want[i:]) {
					t.Fatalf("%s %+v: newest window\n got %v\nwant %v", name, f, got, want)
				}
			}
			if name == "mirror" && w.Requests > 1 {
				t.Errorf("mirror: %d requests for the newest window, want the tail's one", w.Requests)
			}
			last := w.Entries[len(w.Entries)-1]
			w2, err := j.Older(ctx, f, last.At(), 50)
			if err != nil {
				t.Fatal(err)
			}
			log := serviceLog(t, r.client)
			want2 := newestOf(log[:slices.IndexFunc(log, func(e store.AuditEntry) bool { return e.ID == last.ID })], f, time.Time{}, 50)
			if got := idsOf(w2.Entries); !slices.Equal(got, want2) {
				t.Fatalf("%s %+v: older window\n got %v\nwant %v", name, f, got, want2)
			}
			if name == "mirror" && w2.Requests != 0 {
				t.Errorf("mirror %+v: %d requests for an older window it covers (from %+v, %d entries, tail %v)", f, w2.Requests, last.At(), len(w.Entries), w.Requests)
			}
		}
	}
}
