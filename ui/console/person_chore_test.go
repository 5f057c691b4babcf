package console

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestPersonOffersTheDemosChores: in the demo (the console runs its own
// crawl and sync: demoChores) the person view's missing reach and
// activity offer the key, not `vaultdeck access crawl` in a shell that
// cannot reach the demo; the key runs the selected part's job and the
// part is read anew when it ends.
func TestPersonOffersTheDemosChores(t *testing.T) {
	now := func() time.Time { return pagetest.Now }
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Now: now, NoRateLimit: true, Leaver: true}, SimClock: true})
	st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	s := &screen{sim: e.Sim, opts: Options{Backend: e.Client, Conn: &account.Conn{Profile: "sim", DataProfile: "sim", Where: "local", Workspace: "Harrowgate LLP"},
		ReadOnly: true, Theme: "dark", Renderer: r, Journal: st, Receipts: st, Chores: demoChores(e.Client, st, "sim"),
		Cache: StoreCache{Store: st, Profile: "sim", Now: now}, Now: now}}
	tm := s.open(t, "person", e.Sim.Leaver(), 120, 40, "press L to run the access crawl here", "press L to run the audit sync here")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("L")}) // the selected part: reach
	waitFor(t, tm, "access snapshot")
	v := final(t, tm)
	if strings.Contains(v, "vaultdeck access crawl") || strings.Contains(v, "vaultdeck audit sync") {
		t.Errorf("a shell command offered in the demo:\n%s", v)
	}
}
