package recyclebinview

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestDeletionDetailShowsAuditEvidence: a project this token deleted shows,
// in its detail pane, the service's own api:vault_delete_project entry
// once the mirror covers the deletion, and says to sync before that.
func TestDeletionDetailShowsAuditEvidence(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: func() time.Time { return pagetest.Now }}})
	s := e.Sim
	c := e.Client
	st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	pid, err := s.AddProject(sim.ProjectSpec{Name: "Aardvark Evidence"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteProject(context.Background(), pid); err != nil {
		t.Fatal(err)
	}
	s.Advance(time.Minute) // into the bin
	open := func() string {
		env := pagetest.Env(t, c, false)
		env.Journal = st
		p := New(env, "")
		p.SetSize(100, 60)
		p, _ = pagetest.Drive(p, p.Init())
		m := p.(*Model)
		for i := 0; i < m.Table.Len() && (m.selected() == nil || m.selected().VaultProject.ID != pid); i++ {
			m.Table.Move(1)
		}
		if m.selected() == nil || m.selected().VaultProject.ID != pid {
			t.Fatalf("the deleted project is not in the bin view")
		}
		p, _ = pagetest.Press(p, "enter")
		return p.View()
	}
	if v := open(); !strings.Contains(v, "not yet in the mirror: run `vaultdeck audit sync`") {
		t.Fatalf("before a sync:\n%s", v)
	}
	s.Advance(10 * time.Minute)
	if _, err := (&audit.Job{Svc: c, Mirror: st}).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v := open(); !strings.Contains(v, "the service's audit log records it: 1 entry") || !strings.Contains(v, "api:vault_delete_project") {
		t.Fatalf("after a sync:\n%s", v)
	}
}
