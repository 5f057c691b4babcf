package mattersview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

type harness struct {
	t   *testing.T
	s   *sim.Server
	st  *store.Store
	p   page.Page
	out []tea.Msg
	dir string
}

func newHarness(t *testing.T, readOnly bool) *harness {
	return newHarnessWith(t, readOnly, api.Config{Limits: api.Limits{Matters: -1}})
}

// newHarnessWith takes the client's limits and clock from cfg.
func newHarnessWith(t *testing.T, readOnly bool, cfg api.Config) *harness {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: func() time.Time { return pagetest.Now }},
		Client: cfg, DefaultLimits: true}) // cfg's limits as given: the budget test keeps one
	s, c := e.Sim, e.Client
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, s: s, st: st, dir: dir}
	m := New(pagetest.WithJobs(pagetest.Env(t, c, readOnly), page.Jobs{Matters: c}), Deps{Store: st, Profile: "work"}, "")
	m.SetSize(140, 30)
	h.p, h.out = pagetest.Drive(m, m.Init())
	return h
}

func (h *harness) press(keys ...string) {
	for _, k := range keys {
		var out []tea.Msg
		h.p, out = pagetest.Press(h.p, k)
		h.out = append(h.out, out...)
	}
}

// burst sends text as one key message, as a fast typist or a paste does.
func (h *harness) burst(text string) {
	var out []tea.Msg
	h.p, out = pagetest.Drive(h.p, func() tea.Msg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text)} })
	h.out = append(h.out, out...)
}

func (h *harness) typeText(s string) {
	var out []tea.Msg
	h.p, out = pagetest.Type(h.p, s)
	h.out = append(h.out, out...)
}

// runTasks plays the root for the tasks started so far.
func (h *harness) runTasks() []page.TaskDone {
	var done []page.TaskDone
	h.p, done = pagetest.RunTasks(h.p, h.out)
	h.out = nil
	return done
}

func (h *harness) view() string { return h.p.View() }

func (h *harness) live(n int) []sim.MatterInfo {
	var out []sim.MatterInfo
	for _, m := range h.s.Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(out) < n {
			out = append(out, m)
		}
	}
	return out
}

func (h *harness) writeFile(name, body string) string {
	p := filepath.Join(h.dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		h.t.Fatal(err)
	}
	return p
}
