package accessview

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// twoSnapshots crawls the small simulator twice into a real store, with
// one MANAGE grant made between the crawls; it returns the store, the
// grantee and the project.
func twoSnapshots(t *testing.T) (*store.Store, string, string) {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{NoRateLimit: true}})
	s := e.Sim
	c := e.Client
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	crawl := func() store.AccessSnapshot {
		sn, err := (&access.Crawler{API: c, Store: st, Profile: "work"}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return sn
	}
	first := crawl()
	all, _ := st.AccessGrants(first.ID, store.AccessGrantFilter{})
	pid := s.Projects()[0].ID
	for _, g := range all {
		if g.ProjectID == pid {
			continue
		}
		inside := false
		for _, h := range all {
			inside = inside || (h.ProjectID == pid && strings.EqualFold(h.Email, g.Email))
		}
		if !inside {
			if err := s.Share(pid, g.Email, "MANAGE"); err != nil {
				t.Fatal(err)
			}
			crawl()
			return st, g.Email, pid
		}
	}
	t.Fatal("no outsider found")
	return nil, "", ""
}

// run executes cmd and feeds its message back, as the program would.
func run(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		return
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			run(t, m, c)
		}
		return
	}
	_, next := m.Update(msg)
	run(t, m, next)
}

func TestAccessViewPeopleProjectsAndChanges(t *testing.T) {
	st, email, pid := twoSnapshots(t)
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	m := New(env, Deps{Store: st, Profile: "work"})
	m.SetSize(120, 30)
	cmd := m.Init()
	if v := m.View(); !strings.Contains(v, "reading the snapshot") {
		t.Fatalf("before the read: %q", v)
	}
	run(t, m, cmd)
	v := m.View()
	for _, want := range []string{"snapshot 2", "people", "1 change since snapshot 1", "NAME", "PROJECTS", "MANAGE"} {
		if !strings.Contains(v, want) {
			t.Errorf("people tab lacks %q:\n%s", want, v)
		}
	}
	// enter on the grantee: their projects, the new one at MANAGE.
	for i := 0; i < 300; i++ {
		if r, _ := m.Table.Selected(); r.ID == strings.ToLower(email) {
			break
		}
		m.Update(tea.KeyMsg{Type: tea.KeyDown})
	}
	run(t, m, func() tea.Msg { return tea.KeyMsg{Type: tea.KeyEnter} })
	v = m.View()
	if !strings.Contains(v, email) || !strings.Contains(v, pid) || !strings.Contains(m.Title(), email) {
		t.Fatalf("enter on %s did not list their projects:\n%s", email, v)
	}
	if !m.WantsEsc() {
		t.Error("esc must return to the people first")
	}
	m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if strings.Contains(m.Title(), email) {
		t.Fatal("esc did not return to the people")
	}
	m.Update(tea.KeyMsg{Type: tea.KeyTab})
	v = m.View()
	// the one change's address: its local part on the row, the domain said
	// once (every address of the table shares it)
	local, domain, _ := strings.Cut(email, "@")
	for _, want := range []string{"snapshot 1 → 2", "1 gained", "0 lost", "0 changed", "gained", local + " ", "@" + domain, "MANAGE"} {
		if !strings.Contains(v, want) {
			t.Errorf("changes tab lacks %q:\n%s", want, v)
		}
	}
}

func TestAccessViewWithoutSnapshot(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m := New(env, Deps{Store: st, Profile: "work"})
	m.SetSize(80, 24)
	run(t, m, m.Init())
	if v := m.View(); !strings.Contains(v, "no finished snapshot yet: run `vaultdeck access crawl`") {
		t.Fatalf("%q", v)
	}
	m = New(env, Deps{})
	m.SetSize(80, 24)
	cmd := m.Init()
	res := cmd().(page.Result[snapshot])
	if res.Err == nil || !strings.Contains(res.Err.Error(), "needs the local database") {
		t.Fatalf("without a store: %v", res.Err)
	}
}

// TestAccessViewFollowsACrawl: while a crawl is under way the header says
// how far it is, and the view re-reads the database on a tick (one chain,
// however often r is pressed) until its snapshot is there.
func TestAccessViewFollowsACrawl(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sn, err := st.OpenAccessSnapshot("work", "crawler", pagetest.Now, pagetest.Now.Add(time.Minute), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PlanAccessProjects(sn.ID, []store.AccessProject{{ID: "p1", Name: "One"}, {ID: "p2", Name: "Two"}}, nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.CommitAccessProject(sn.ID, store.AccessProject{ID: "p1", Name: "One"}, []store.AccessGrant{{Email: "a@x", AccessLevel: "READ"}}); err != nil {
		t.Fatal(err)
	}
	m := New(env, Deps{Store: st, Profile: "work"})
	m.SetSize(100, 24)
	_, tick := m.Update(m.Init()())
	if v := m.View(); !strings.Contains(v, "crawl under way: 1/2 projects") || !strings.Contains(v, "no finished snapshot yet") {
		t.Fatalf("during the crawl: %q", v)
	}
	if tick == nil {
		t.Fatal("no recheck scheduled while a crawl is under way")
	}
	// r while the tick is pending schedules no second one.
	_, c := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	if _, again := m.Update(c()); again != nil {
		t.Error("a second recheck chain was started by r")
	}
	// The crawl finishes; the recheck reads the snapshot.
	if err := st.CommitAccessProject(sn.ID, store.AccessProject{ID: "p2", Name: "Two"}, []store.AccessGrant{{Email: "b@x", AccessLevel: "MANAGE"}}); err != nil {
		t.Fatal(err)
	}
	if err := st.FinishAccessSnapshot(sn.ID, pagetest.Now); err != nil {
		t.Fatal(err)
	}
	_, load := m.Update(recheck{m.id})
	m.Update(load())
	if v := m.View(); !strings.Contains(v, "snapshot 1 · 2 people · 2 projects") || strings.Contains(v, "crawl under way") {
		t.Fatalf("after the crawl: %q", v)
	}
}
