package audit

import (
	"net/http/httptest"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

func simClient(t *testing.T, s *sim.Server, url, token string) *api.Client {
	t.Helper()
	c, err := api.New(api.Config{BaseURL: url, Token: api.StaticToken(s.Token(token))})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAgainstSimulator reads the seeded audit log through the real client:
// earliest plus one page, a type filter, and a token without audit rights.
func TestAgainstSimulator(t *testing.T) {
	s := sim.New(sim.Options{Seed: 1, Control: true})
	srv := httptest.NewServer(s)
	defer srv.Close()

	r := newRig(t, simClient(t, s, srv.URL, "admin"), "")
	r.run(r.m.Init())
	for _, st := range r.stat {
		if st.Err != nil {
			t.Fatalf("load failed: %v", st.Err)
		}
	}
	n := r.m.Table.Total()
	if n < 2 || n > 1+pageSize {
		t.Fatalf("loaded %d entries, want earliest plus at most one page", n)
	}
	ids := r.m.Table.VisibleIDs()
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			t.Fatalf("entries out of order at %d: %s after %s", i, ids[i], ids[i-1])
		}
	}
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if v := r.m.View(); !strings.Contains(v, "data:") || !strings.Contains(v, `"site": "us"`) {
		t.Errorf("detail pane:\n%s", v)
	}
	r.key(tea.KeyMsg{Type: tea.KeyEsc})

	f := newRig(t, simClient(t, s, srv.URL, "admin"), sim.AuditOutlookAsk)
	f.run(f.m.Init())
	if f.m.Table.Total() == 0 {
		t.Fatalf("no %s entries loaded", sim.AuditOutlookAsk)
	}
	for _, id := range f.m.Table.VisibleIDs() {
		if e := f.m.pager.entries[f.m.byID[id]]; e.Type != sim.AuditOutlookAsk {
			t.Fatalf("filtered view shows %s", e.Type)
		}
	}

	d := newRig(t, simClient(t, s, srv.URL, "no-audit"), "")
	d.run(d.m.Init())
	if len(d.stat) == 0 || d.stat[0].Err == nil {
		t.Fatal("403 not reported")
	}
	if v := d.m.View(); !strings.Contains(v, "Territory admin or Organization admin") {
		t.Errorf("permission not named:\n%s\nstatus: %v", v, d.stat[0].Err)
	}
}
