package console

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// screen is the console on the simulator's seeded data with a pinned clock
// (the simulator's and the views'), drawn with the ASCII colour profile.
type screen struct {
	sim      *sim.Server
	opts     Options
	requests *atomic.Int64 // requests that reached the simulator
	bin      *atomic.Int64 // of them, listings of the recycle bin
}

func newScreen(t *testing.T, readOnly bool) *screen {
	t.Helper()
	now := func() time.Time { return pagetest.Now }
	var n, bin atomic.Int64
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, Now: now},
		DefaultLimits: true, // the console's own client, as a user runs it
		// the client counts its budget on the same pinned clock as the views
		// (the header's "resets in" is measured from it), not the machine's
		SimClock: true,
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				if strings.HasSuffix(r.URL.Path, "/recycle_bin") {
					bin.Add(1)
				}
				next.ServeHTTP(w, r)
			})
		}})
	s, c := e.Sim, e.Client
	st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return &screen{sim: s, requests: &n, bin: &bin, opts: Options{Backend: c, Jobs: ClientJobs(c), Conn: &account.Conn{Profile: "sim", DataProfile: "sim", Where: "local", Workspace: "Harrowgate LLP"},
		ReadOnly: readOnly, Theme: "dark", Renderer: r, Journal: st, Receipts: st,
		Cache: StoreCache{Store: st, Profile: "sim", Now: now}, Now: now}}
}

// project is the first live project of the seeded data.
func (s *screen) project(t *testing.T) sim.ProjectInfo {
	for _, p := range s.sim.Projects() {
		if !p.Deleted && !p.DeleteInProgress && !p.Example {
			return p
		}
	}
	t.Fatal("no live project in the seed")
	return sim.ProjectInfo{}
}

// open starts the console on route at w x h and waits for every text.
func (s *screen) open(t *testing.T, route, arg string, w, h int, waits ...string) *teatest.TestModel {
	t.Helper()
	o := s.opts
	o.Start, o.StartArg = route, arg
	m, err := NewModel(context.Background(), o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	waitFor(t, tm, waits...)
	return tm
}

func waitFor(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

// final quits and returns the last frame.
func final(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	return tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
}

func lastLine(v string) string {
	lines := strings.Split(v, "\n")
	return lines[len(lines)-1]
}
