package audit_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

func mirrors(t *testing.T) map[string]func() audit.Mirror {
	return map[string]func() audit.Mirror{
		"fake": func() audit.Mirror { return newFakeMirror() },
		"store": func() audit.Mirror {
			s, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
}

func mirroredIDs(t *testing.T, m audit.Mirror, log string) []string {
	t.Helper()
	var ids []string
	if err := m.AuditEntries(context.Background(), log, store.AuditFilter{}, func(e store.AuditEntry) error {
		ids = append(ids, e.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestSyncStoppedAnywhereNeitherGapsNorRepeats stops a sync after each
// number of pages in turn (a kill between two pages: a page and its cursor
// are one transaction) and runs it again; the mirror must end with every
// entry the service lists, once, in the service's order, with the raw JSON
// the service sent.
func TestSyncStoppedAnywhereNeitherGapsNorRepeats(t *testing.T) {
	for name, open := range mirrors(t) {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, sim.Options{Seed: 7, NoRateLimit: true, AuditEntries: 4500}, nil)
			m := open()
			for stopAfter := 1; ; stopAfter++ {
				ctx, cancel := context.WithCancel(context.Background())
				pages := 0
				j := &audit.Job{Svc: r.client, Mirror: m, Progress: func(audit.Progress) {
					if pages++; pages == stopAfter {
						cancel()
					}
				}}
				res, err := j.Sync(ctx)
				cancel()
				if err == nil && res.CaughtUp {
					break
				}
				if !errors.Is(err, context.Canceled) && !errors.Is(err, api.KindCanceled) {
					t.Fatalf("run %d: %v", stopAfter, err)
				}
				if stopAfter > 20 {
					t.Fatal("the sync never caught up")
				}
			}
			full := r.fullLog(t)
			log := audit.LogKey(r.client.Base(), mustWorkspace(t, r))
			got := mirroredIDs(t, m, log)
			if len(got) < 4500 || !slices.Equal(got, full[:len(got)]) {
				t.Fatalf("mirror holds %d entries; not the service's first %d in order (service lists %d)", len(got), len(got), len(full))
			}
			st, _ := m.AuditState(context.Background(), log)
			if st.Entries != int64(len(got)) || st.Cursor != got[len(got)-1] {
				t.Fatalf("state %+v after %d entries", st, len(got))
			}
			// byte for byte: the first entry as the service sends it
			it, err := r.client.AuditEarliest(context.Background(), "")
			if err != nil {
				t.Fatal(err)
			}
			var raw []byte
			_ = m.AuditEntries(context.Background(), log, store.AuditFilter{Limit: 1}, func(e store.AuditEntry) error { raw = e.Raw; return nil })
			if string(raw) != string(it.JSON) {
				t.Fatalf("raw JSON changed:\n%s\n%s", raw, it.JSON)
			}
		})
	}
}

func mustWorkspace(t *testing.T, r *rig) string {
	t.Helper()
	w, err := r.client.WhoAmI(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return w.WorkspaceID
}

// TestSyncPacesEvenly: against the service's limit of 60 a minute, a
// sync's requests are spread one every 61s/60 (never a burst that fills
// the window and leaves the organisation nothing), and --max-rate 6 spreads
// them one every ~10s; none meets a 429.
func TestSyncPacesEvenly(t *testing.T) {
	for _, tc := range []struct {
		maxRate int
		gap     time.Duration
	}{{0, (time.Minute + time.Second) / 60}, {6, (time.Minute + time.Second) / 6}} {
		clock := newVirtualClock()
		r := newRig(t, sim.Options{Seed: 7, AuditEntries: 8000}, clock)
		var waits []api.Wait
		ctx := api.WithWaitObserver(context.Background(), func(w api.Wait) { waits = append(waits, w) })
		j := &audit.Job{Svc: r.client, Mirror: newFakeMirror(), Clock: clock, MaxRate: tc.maxRate}
		res, err := j.Sync(ctx)
		if err != nil || !res.CaughtUp {
			t.Fatalf("max-rate %d: %v %+v", tc.maxRate, err, res)
		}
		// earliest, then 9 pages: after the first entry come 7,999 seeded
		// entries and one api:audit_log_fetch per read (10), 8,009 in all
		if res.Requests != 10 {
			t.Errorf("max-rate %d: %d requests", tc.maxRate, res.Requests)
		}
		sent := r.sentTimes()
		for i := 1; i < len(sent); i++ {
			if d := sent[i].Sub(sent[i-1]); d < tc.gap {
				t.Errorf("max-rate %d: requests %d and %d only %s apart (want %s)", tc.maxRate, i, i+1, d, tc.gap)
			}
		}
		for _, w := range waits {
			if w.Reason != api.WaitBudget {
				t.Errorf("max-rate %d: waited for %v", tc.maxRate, w)
			}
		}
	}
}

// TestPaceGap is the pacing rule's table.
func TestPaceGap(t *testing.T) {
	window := time.Minute + time.Second
	for _, tc := range []struct {
		b    api.BudgetStatus
		max  int
		want time.Duration
	}{
		{api.BudgetStatus{Limit: 60}, 0, window / 60},
		{api.BudgetStatus{Limit: 60}, 30, window / 30},
		{api.BudgetStatus{Limit: 48}, 60, window / 48}, // the cap never raises the limit
		{api.BudgetStatus{Unlimited: true}, 0, 0},
		{api.BudgetStatus{Unlimited: true}, 120, window / 120},
	} {
		if got := audit.PaceGap(tc.b, tc.max); got != tc.want {
			t.Errorf("PaceGap(%+v, %d) = %s, want %s", tc.b, tc.max, got, tc.want)
		}
	}
}
