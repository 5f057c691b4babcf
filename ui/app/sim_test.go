package app_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
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

// realApp wires the real client to an in-process simulator with a pinned clock.
func realApp(t *testing.T, start string) tea.Model {
	now := func() time.Time { return pagetest.Now }
	// The client keeps its default limits, as a user's console does.
	// SimClock: its budget is counted on the pinned clock too (the header says when it resets)
	c := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, Now: now}, DefaultLimits: true, SimClock: true}).Client
	env := pagetest.Env(t, c, false)
	return app.New(env.WithConn(&account.Conn{Profile: "sim", Where: "local", Workspace: "Sim Workspace"}), app.Config{Start: start, Routes: []app.Route{
		{Name: "projects", New: projectsview.New},
		{Name: "project", New: projectview.New, FromRecord: projectview.Record},
		{Name: "recyclebin", Aliases: []string{"rb", "bin"}, New: recyclebinview.New},
	}})
}

// waitFor waits until the output since the last wait holds every text.
func waitFor(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	},
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

func TestSimProjectsGolden(t *testing.T) {
	tm := teatest.NewTestModel(t, realApp(t, "projects"), teatest.WithInitialTermSize(110, 16))
	waitFor(t, tm, "12 of 12 loaded") // not "0 of 0 loaded · loading"
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	golden.RequireEqual(t, []byte(fm.View()))
}

func TestSimRecycleBinGolden(t *testing.T) {
	tm := teatest.NewTestModel(t, realApp(t, "rb"), teatest.WithInitialTermSize(110, 16))
	waitFor(t, tm, "30 entries") // not "0 entries · loading"
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	golden.RequireEqual(t, []byte(fm.View()))
}

// TestSimOpenProject drives the real client synchronously: list, enter, files tab.
func TestSimOpenProject(t *testing.T) {
	m := realApp(t, "projects").(*app.Model)
	drive := func(msg tea.Msg) {
		queue := []tea.Msg{msg}
		for len(queue) > 0 && len(queue) < 1000 {
			next := queue[0]
			queue = queue[1:]
			_, cmd := m.Update(next)
			if cmd == nil {
				continue
			}
			var run func(c tea.Cmd)
			run = func(c tea.Cmd) {
				switch r := c().(type) {
				case nil, tea.QuitMsg:
				case tea.BatchMsg:
					for _, c := range r {
						if c != nil {
							run(c)
						}
					}
				case spinner.TickMsg:
					// spinners re-arm while loading; the test runs requests synchronously
				default:
					queue = append(queue, r)
				}
			}
			run(cmd)
		}
	}
	drive(tea.WindowSizeMsg{Width: 110, Height: 20})
	for _, msg := range expand(m.Init()) {
		drive(msg)
	}
	if !strings.Contains(m.View(), "loaded") {
		t.Fatalf("projects:\n%s", m.View())
	}
	drive(tea.KeyMsg{Type: tea.KeyEnter})
	drive(tea.KeyMsg{Type: tea.KeyTab})
	v := m.View()
	if !strings.Contains(v, "Files") || !strings.Contains(v, "projects ›") {
		t.Errorf("project view:\n%s", v)
	}
}

// expand runs cmd, flattening batches, and returns the messages.
func expand(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch r := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range r {
			out = append(out, expand(c)...)
		}
		return out
	default:
		return []tea.Msg{r}
	}
}
