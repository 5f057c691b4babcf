package console

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// burstOptions is the console on the simulator's seeded log with a
// planted burst of 40 deletions from a new address, its mirror synced.
func burstOptions(t testing.TB) Options {
	t.Helper()
	now := func() time.Time { return pagetest.Now }
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Now: now, NoRateLimit: true, AuditBurst: sim.AuditBurst{Count: 40}}})
	c := e.Client
	st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := (&audit.Job{Svc: c, Mirror: st}).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return Options{Backend: c, Conn: &account.Conn{Profile: "sim", DataProfile: "sim", Where: "local", Workspace: "Harrowgate LLP"},
		ReadOnly: true, Theme: "dark", Renderer: r, Journal: st, Receipts: st, Cache: StoreCache{Store: st, Profile: "sim", Now: now}, Now: now}
}

// TestActivityMarksThePlantedBurst: the activity view, from the mirror,
// marks the planted burst (golden at 80x24); tab then enter on the mark
// opens the audit view on exactly its 40 deletions.
func TestActivityMarksThePlantedBurst(t *testing.T) {
	o := burstOptions(t)
	o.Start, o.StartArg = "activity", "2d"
	m, err := NewModel(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "MARKS (1)", "burst")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	waitFor(t, tm, "mark 1 of 1")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "40 in ", "1/40")
	v := final(t, tm)
	// the filter fixes the type, the user and the address: the header says
	// them once and the rows drop them (widgets.Table.Fix)
	if head := strings.Join(strings.Fields(v), " "); !strings.Contains(head, "vault_delete") || !strings.Contains(head, sim.DefaultBurstIP) {
		t.Errorf("the header does not say the planted deletion's type and address:\n%s", v)
	}
	rows := 0
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "2025-") { // a row of the table
			rows++
			if strings.Contains(l, "vault_delete") || strings.Contains(l, sim.DefaultBurstIP) {
				t.Errorf("a row repeats what the filter fixes: %q\n%s", l, v)
			}
		}
	}
	if rows == 0 {
		t.Fatalf("no planted deletion on screen:\n%s", v)
	}
}

// TestGoldenActivity: the activity view at 80x24 on the planted burst.
func TestGoldenActivity(t *testing.T) {
	o := burstOptions(t)
	o.Start, o.StartArg = "activity", "2d"
	m, err := NewModel(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "MARKS (1)")
	checkScreen(t, final(t, tm))
}
