package app_test

import (
	"encoding/base64"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
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
	line := `vaultdeck recycle-bin --purging-within 7d --deleted-by 'O'"'"'Brien <x@y>' --csv`
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
	if got := saved["purging-week"]; got.Line() != q.Line() {
		t.Errorf("saved %q, want %q", got.Line(), q.Line())
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
	waitFor(t, tm, "vaultdeck recycle-bin --csv", "y copies it · esc closes", "copy the command · esc back")
	tm.Send(runes("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}
