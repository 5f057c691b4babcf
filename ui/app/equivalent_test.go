package app_test

import (
	"encoding/base64"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// queryPage lists what its query says (page.Querier).
type queryPage struct{ q page.Query }

func (p *queryPage) Init() tea.Cmd                       { return nil }
func (p *queryPage) Update(tea.Msg) (page.Page, tea.Cmd) { return p, nil }
func (p *queryPage) View() string                        { return "rows of " + p.q.Line() }
func (p *queryPage) SetSize(int, int)                    {}
func (p *queryPage) Title() string                       { return "bin" }
func (p *queryPage) Help() []key.Binding                 { return nil }
func (p *queryPage) Query() page.Query                   { return p.q }

// TestEquivalentCopySaveOpen: C shows the view's command whole, y copies
// it (OSC 52), V then a name saves its query, and :NAME opens a page built
// from the saved query.
func TestEquivalentCopySaveOpen(t *testing.T) {
	q := page.Query{Command: []string{"recycle-bin"}, Flags: []page.Flag{{Name: "purging-within", Value: "7d"}, {Name: "deleted-by", Value: "O'Brien <x@y>"}}}
	out := &lockedBuffer{}
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	env.Output = out
	var mu sync.Mutex
	saved := map[string]page.Query{}
	views := app.SavedViews{Where: "views.conf", Saved: map[string]page.Query{}, Save: func(name string, q page.Query) error {
		mu.Lock()
		defer mu.Unlock()
		saved[name] = q
		return nil
	}}
	m := app.New(env.WithConn(&account.Conn{Profile: "p", Where: "local", Workspace: "W"}), app.Config{Start: "bin", Views: views,
		Getenv: func(string) string { return "" },
		Routes: []app.Route{
			{Name: "bin", New: func(page.Env, string) page.Page { return &queryPage{q: q} }},
			{Name: "other", New: func(page.Env, string) page.Page { return &queryPage{q: page.Query{Command: []string{"projects"}}} }},
			{Name: "opened", Commands: [][]string{{"recycle-bin"}}, FromQuery: func(_ page.Env, q page.Query) (page.Page, error) {
				return &queryPage{q: page.Query{Command: []string{"from-saved"}, Flags: q.Flags}}, nil
			}},
		}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 20))
	waitFor(t, tm, "rows of")
	// the profile and the endpoint (a base URL: Where is no region) go with it (issue 42)
	line := `vaultdeck recycle-bin --purging-within 7d --deleted-by 'O'"'"'Brien <x@y>' --profile p --base-url https://api.example.test --csv`
	tm.Send(runes("C"))
	waitFor(t, tm, "--purging-within 7d", "y copies it")
	tm.Send(runes("y"))
	waitFor(t, tm, "sent the command")
	if !strings.Contains(out.String(), base64.StdEncoding.EncodeToString([]byte(line))) {
		t.Errorf("y did not send %s", line)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	tm.Send(runes("V"))
	waitFor(t, tm, "save view as:")
	tm.Send(runes("purging-week"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, `saved the view "purging-week" in views.conf`)
	tm.Send(runes(":other"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "rows of vaultdeck projects")
	tm.Send(runes(":purging-week"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "rows of vaultdeck from-saved --purging-within 7d")
	tm.Send(runes("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	mu.Lock()
	defer mu.Unlock()
	if got, want := saved["purging-week"].Line("--csv"), line; got != want {
		t.Errorf("saved %q, want %q", got, want)
	}
}

// TestEquivalentWithoutSaving: where views cannot be saved (the demo,
// serve's sessions), the command's pane offers y alone: no V in its note
// or its footer (it said "V saves it as a view", and V then said saving
// is not available).
func TestEquivalentWithoutSaving(t *testing.T) {
	q := page.Query{Command: []string{"recycle-bin"}}
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	m := app.New(env.WithConn(&account.Conn{Profile: "p", Where: "local", Workspace: "W"}), app.Config{Start: "bin",
		Getenv: func(string) string { return "" },
		Routes: []app.Route{{Name: "bin", New: func(page.Env, string) page.Page { return &queryPage{q: q} }}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 20))
	waitFor(t, tm, "rows of")
	tm.Send(runes("C"))
	waitFor(t, tm, "vaultdeck recycle-bin --profile p --base-url https://api.example.test --csv", "y copies it · esc closes", "copy the command · esc back")
	tm.Send(runes("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestEquivalentNamesTheConnection (issue 42): C names the stored profile
// and the endpoint when it is not the default (a region other than us, a
// base URL: the demo's loopback simulator, whose profile is stored
// nowhere); a view whose rows a / filter narrows is not saved, and says
// what no flag says; a saved view of another profile is not opened here.
func TestEquivalentNamesTheConnection(t *testing.T) {
	for _, c := range []struct {
		conn account.Conn
		want string
	}{
		{account.Conn{Profile: "work", Where: "region us"}, "vaultdeck recycle-bin --profile work --csv"},
		{account.Conn{Profile: "eu", Where: "region eu"}, "vaultdeck recycle-bin --profile eu --region eu --csv"},
		{account.Conn{Profile: "demo", Where: account.SimulatorWhere}, "vaultdeck recycle-bin --base-url https://api.example.test --csv"},
		{account.Conn{Where: "region us"}, "vaultdeck recycle-bin --csv"},
	} {
		env := pagetest.Env(t, &pagetest.Fake{}, false)
		conn := c.conn
		m := app.New(env.WithConn(&conn), app.Config{Start: "bin", Getenv: func(string) string { return "" },
			Routes: []app.Route{{Name: "bin", New: func(page.Env, string) page.Page { return &queryPage{q: page.Query{Command: []string{"recycle-bin"}}} }}}})
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 20))
		waitFor(t, tm, "rows of")
		tm.Send(runes("C"))
		waitFor(t, tm, c.want)
		tm.Send(runes("q"))
		tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	}

	filtered := page.Query{Command: []string{"recycle-bin"}, Unsaid: []string{`the / filter "lark": the command lists the rows without it`}}
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	saves := 0
	views := app.SavedViews{Saved: map[string]page.Query{
		"theirs": {Command: []string{"recycle-bin"}, Globals: []page.Flag{{Name: "profile", Value: "other"}}},
	}, Save: func(string, page.Query) error { saves++; return nil }}
	m := app.New(env.WithConn(&account.Conn{Profile: "work", Where: "region us"}), app.Config{Start: "bin", Views: views, Getenv: func(string) string { return "" },
		Routes: []app.Route{{Name: "bin", Commands: [][]string{{"recycle-bin"}}, New: func(page.Env, string) page.Page { return &queryPage{q: filtered} },
			FromQuery: func(page.Env, page.Query) (page.Page, error) {
				return &queryPage{q: page.Query{Command: []string{"opened"}}}, nil
			}}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 20))
	waitFor(t, tm, "rows of")
	tm.Send(runes("V"))
	waitFor(t, tm, "cannot be saved as shown", `the / filter "lark"`)
	tm.Send(runes(":theirs"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "lists --profile other (this session's is work)")
	tm.Send(runes("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if saves != 0 {
		t.Errorf("a view the / filter narrows was saved %d times", saves)
	}
}

// TestEquivalentWrapsAtSpacesOnly: the pane wraps the command at its
// spaces, never inside a flag at its hyphens (at 80 columns it showed
// "--" at a line's end and "csv" on the next: a line selected with the
// mouse then read "-- csv").
func TestEquivalentWrapsAtSpacesOnly(t *testing.T) {
	q := page.Query{Command: []string{"recycle-bin"}, Flags: []page.Flag{{Name: "name", Value: "larkspur"}}}
	for w := 40; w <= 100; w += 3 {
		env := pagetest.Env(t, &pagetest.Fake{}, false)
		m := app.New(env.WithConn(&account.Conn{Profile: "demo", Where: account.SimulatorWhere}), app.Config{Start: "bin",
			Getenv: func(string) string { return "" },
			Routes: []app.Route{{Name: "bin", New: func(page.Env, string) page.Page { return &queryPage{q: q} }}}})
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, 20))
		waitFor(t, tm, "rows of")
		tm.Send(runes("C"))
		waitFor(t, tm, "y copies it")
		tm.Send(runes("q"))
		view := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View() // the pane, as it was drawn last
		for _, line := range strings.Split(ansi.Strip(view), "\n") {
			line = strings.TrimRight(strings.TrimLeft(strings.TrimRight(line, " │"), "│ "), " ")
			if strings.HasSuffix(line, "-") && strings.Contains(line, "vaultdeck") || strings.HasSuffix(line, " --") || line == "csv" {
				t.Fatalf("at %d columns the command breaks at a hyphen: %q\n%s", w, line, ansi.Strip(view))
			}
		}
	}
}
