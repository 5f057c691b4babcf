package app_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

// browsingSessionRequests is what TestBrowsingSessionRequests measures;
// BENCHMARKS.md quotes it. Fewer is better: the vault budget is 10 a minute
// for the whole organisation. Opening a project reads its limits too
// (get_metadata, issue 44: the head's "files 950/1000 · 4.2/5 GB").
const browsingSessionRequests = 7

// TestBrowsingSessionRequests counts the simulator's requests for a
// scripted session: list projects, filter by name (typed, then enter),
// clear the filter, open a project, its Files tab, cycle the status filter
// through every status and back, leave, open the recycle bin.
func TestBrowsingSessionRequests(t *testing.T) {
	var n atomic.Int64
	now := func() time.Time { return pagetest.Now }
	// The client keeps its default limits: the session is measured as a user runs it.
	c := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Now: now}, DefaultLimits: true,
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				t.Logf("request %d: %s %s", n.Load(), r.Method, r.URL.RequestURI())
				next.ServeHTTP(w, r)
			})
		}}).Client
	env := pagetest.Env(t, c, false)
	env.Debounce = 0 // the console's own pause before a name filter goes out unasked
	m := app.New(env.WithConn(&account.Conn{Profile: "sim", Where: "local", Workspace: "Sim Workspace"}), app.Config{Start: "projects", Routes: []app.Route{
		{Name: "projects", New: projectsview.New},
		{Name: "project", New: projectview.New, FromRecord: projectview.Record},
		{Name: "bin", New: recyclebinview.New},
	}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 30))
	waitFor(t, tm, "12 of 12 loaded")
	typeSlowly(tm, "/Acme")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, `name contains "Acme"`, "1 of 1 loaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "12 of 12 loaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Users")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	// the files loaded (their position line), not only the tab drawn: an f
	// pressed before they arrive is rightly a server filter
	waitFor(t, tm, "status: all", "1/35")
	for _, s := range projectview.Statuses()[1:] {
		tm.Send(burst("f"))
		waitFor(t, tm, "status: "+strings.ToLower(s)) // one casing everywhere
	}
	tm.Send(burst("f"))
	waitFor(t, tm, "status: all")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	tm.Send(burst(":bin"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Recycle bin ·")
	tm.Send(burst("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if got := n.Load(); got != browsingSessionRequests {
		t.Errorf("the session made %d requests, want %d", got, browsingSessionRequests)
	}
}

// typeSlowly sends one key message per rune, as a person types.
func typeSlowly(tm *teatest.TestModel, s string) {
	for _, r := range strings.Split(s, "") {
		tm.Send(burst(r))
	}
}
