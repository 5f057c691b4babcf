package filestatusview

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestAgainstSimulator polls through the real client and simulator: a file
// that finishes processing, one already ready, and an unknown ID.
func TestAgainstSimulator(t *testing.T) {
	simNow := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, Now: func() time.Time { return simNow }},
		DefaultLimits: true}) // the poll's own budget, as a user's client has it
	s, client := e.Sim, e.Client
	var project string
	for _, p := range s.Projects() {
		if !p.Deleted && !p.DeleteInProgress && !p.Example {
			project = p.ID
			break
		}
	}
	ids, err := s.AddFiles(project, []sim.FileSpec{
		{Name: "slow.pdf", Status: "processing", ReadyInSeconds: 60},
		{Name: "done.pdf"},
	})
	if err != nil {
		t.Fatal(err)
	}
	ghost := "00000000-0000-4000-8000-000000000000"
	r := newRigWith(t, client, nil, strings.Join(append(ids, ghost), ","), Options{})
	r.run(r.m.Init())
	for _, st := range r.stat {
		if st.Err != nil {
			t.Fatalf("poll failed: %v", st.Err)
		}
	}
	v := r.m.View()
	for _, want := range []string{"slow.pdf", "processing", "done.pdf", "ready_to_query", "not found", "processing 1"} {
		if !strings.Contains(v, want) {
			t.Errorf("first poll: view lacks %q:\n%s", want, v)
		}
	}
	if len(r.ticks) != 1 {
		t.Fatalf("ticks after first poll = %d, want 1", len(r.ticks))
	}
	s.Advance(61 * time.Second)
	r.deliver()
	if v := r.m.View(); !strings.Contains(v, "all settled") || !strings.Contains(v, "processing 0 ·") || strings.Contains(v, " processing  ") {
		t.Errorf("second poll: view\n%s", v)
	}
	if len(r.ticks) != 0 {
		t.Error("polling continued after every file settled")
	}
	if b := client.Budget(api.CategoryVault); b.Remaining != b.Limit-2 {
		t.Errorf("vault budget %d/%d after two polls", b.Remaining, b.Limit)
	}
}
