package matters

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// losesAnswer is a connection that drops after the service acted: the
// deletion happened, the client hears only an error.
type losesAnswer struct{ Service }

func (l losesAnswer) DeleteMatters(ctx context.Context, p []api.MatterPair) (*api.MatterDeletion, error) {
	_, _ = l.Service.DeleteMatters(ctx, p)
	return nil, errors.New("connection reset by peer")
}

// A deletion whose answer was lost leaves its pairs error/outcome_unknown,
// and their detail says a restore checks them against the listing. The
// restore left them out (it read only "deleted" and "in_flight"): matters
// this run deleted were never brought back, and nothing said so. They are
// judged as in-flight pairs are: restored when the listing proves this
// run deleted them.
func TestRestoreChecksPairsWhoseDeletionAnswerWasLost(t *testing.T) {
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
			pairs = append(pairs, Pair{Line: len(pairs) + 2, ClientID: m.ClientID, MatterID: m.MatterID})
		}
	}
	id, rep, err := Delete(context.Background(), Deps{Service: losesAnswer{c}, Store: st, Profile: "p"}, Source{Name: "m.csv"}, NewPlan(pairs, 0), Watch{})
	if err != nil || rep.Outcomes[0].Code != CodeUnknown {
		t.Fatalf("delete: %v %+v", err, rep.Outcomes)
	}
	if d := rep.Outcomes[0].Detail; strings.Contains(d, "safe") || !strings.Contains(d, "matters restore --receipt") {
		t.Errorf("outcome_unknown detail %q", d)
	}
	rp, err := PlanRestore(st, id)
	if err != nil {
		t.Fatal(err)
	}
	_, rrep, err := Restore(context.Background(), Deps{Service: c, Store: st, Profile: "p"}, rp, Watch{})
	if err != nil || rrep == nil || rrep.Err != nil {
		t.Fatalf("restore: %v %+v", err, rrep)
	}
	for _, m := range s.Matters() {
		for _, p := range pairs {
			if m.ClientID == p.ClientID && m.MatterID == p.MatterID && m.Deleted {
				t.Errorf("pair %s/%s, deleted by the run whose answer was lost, is still deleted after the restore", p.ClientID, p.MatterID)
			}
		}
	}
}
