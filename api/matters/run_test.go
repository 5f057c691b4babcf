package matters

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// diesAfterAnswer is the process dying between the service's answer and the
// receipt's write: the deletion happened, the goroutine ends there.
type diesAfterAnswer struct{ Service }

func (d diesAfterAnswer) DeleteMatters(ctx context.Context, p []api.MatterPair) (*api.MatterDeletion, error) {
	_, _ = d.Service.DeleteMatters(ctx, p)
	runtime.Goexit()
	return nil, nil
}

// A kill between the answer and the receipt's write must not lose the undo:
// the pairs are on the receipt as in flight before the request is sent, and
// a restore from that receipt brings them back.
func TestCrashAfterAnswerKeepsTheUndo(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s, c := e.Sim, e.Client
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var pairs []Pair
	for _, m := range s.Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(pairs) < 2 {
			pairs = append(pairs, Pair{Line: len(pairs) + 1, ClientID: m.ClientID, MatterID: m.MatterID})
		}
	}
	plan := NewPlan(pairs, 0)

	dead, finished := make(chan struct{}), false
	go func() {
		defer close(dead) // Goexit runs deferred calls: the run's end
		d := Deps{Service: diesAfterAnswer{c}, Store: st, Profile: "p"}
		Delete(context.Background(), d, Source{Name: "m.csv"}, plan, Watch{})
		finished = true
	}()
	<-dead
	if finished {
		t.Fatal("the run was expected to die after the answer")
	}
	rs, err := st.Receipts()
	if err != nil || len(rs) != 1 {
		t.Fatalf("receipts %+v %v", rs, err)
	}
	id := rs[0].ID
	if rs[0].Counts["in_flight"] != 2 {
		t.Fatalf("receipt after the crash: counts %v, want the 2 pairs in flight", rs[0].Counts)
	}
	left := 0
	for _, m := range s.Matters() {
		for _, p := range pairs {
			if m.ClientID == p.ClientID && m.MatterID == p.MatterID && !m.Deleted {
				left++
			}
		}
	}
	if left != 0 {
		t.Fatalf("%d pairs were not deleted by the service", left)
	}
	rp, err := PlanRestore(st, id)
	if err != nil {
		t.Fatal(err)
	}
	_, rep, err := Restore(context.Background(), Deps{Service: c, Store: st, Profile: "p"}, rp, Watch{})
	if err != nil || rep.Err != nil {
		t.Fatalf("restore: %v %v", err, rep.Err)
	}
	for _, m := range s.Matters() {
		for _, p := range pairs {
			if m.ClientID == p.ClientID && m.MatterID == p.MatterID && m.Deleted {
				t.Errorf("pair %s/%s still deleted after the restore", p.ClientID, p.MatterID)
			}
		}
	}
}
