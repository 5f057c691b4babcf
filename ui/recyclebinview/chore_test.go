package recyclebinview

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestDetailEvidenceAfterTheSyncHere: in a demo-like session the detail's
// evidence offers the key that runs the audit sync here; when that sync
// ends (TaskDone, broadcast to every page) the open detail's evidence is
// looked up again, without closing and opening it.
func TestDetailEvidenceAfterTheSyncHere(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: func() time.Time { return pagetest.Now }}})
	s, c := e.Sim, e.Client
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
	env := pagetest.Env(t, c, false)
	env.Journal = st
	env.Chores = &page.Chores{SyncAudit: func(ctx context.Context, _ page.Progress) (page.Outcome, error) {
		_, err := (&audit.Job{Svc: c, Mirror: st}).Sync(ctx)
		return page.Outcome{}, err
	}}
	p := New(env, "")
	p.SetSize(100, 60)
	p, _ = pagetest.Drive(p, p.Init())
	m := p.(*Model)
	for i := 0; i < m.Table.Len() && (m.selected() == nil || m.selected().VaultProject.ID != pid); i++ {
		m.Table.Move(1)
	}
	p, _ = pagetest.Press(p, "enter")
	key := env.Keys.RunHere.Help().Key
	if v := p.View(); !strings.Contains(v, "press "+key+" to run the audit sync here") {
		t.Fatalf("before the sync, the hint is not the key:\n%s", v)
	}
	s.Advance(10 * time.Minute)
	p, done := pagetest.RunTasks(p, []tea.Msg{env.Chores.Start(page.ChoreSyncAudit)()})
	if len(done) != 1 || done[0].Err != nil {
		t.Fatalf("sync: %+v", done)
	}
	if v := p.View(); !strings.Contains(v, "the service's audit log records it: 1 entry") {
		t.Fatalf("after the sync the key ran, the open detail's evidence was not looked up again:\n%s", v)
	}
	if ch := p.(*Model).Chore(); ch != page.ChoreNone {
		t.Fatalf("after the sync the detail still asks for %q", ch)
	}
}
