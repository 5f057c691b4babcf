package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

const rejected = "is not a client-matter UUID"

// binApp is the root over the real recycle-bin page, with two entries.
func binApp(t *testing.T) *Model {
	now := pagetest.Now
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
		var items []api.RecycleBinEntry
		for i, name := range []string{"Zeta Matter", "Alpha Matter"} {
			items = append(items, api.RecycleBinEntry{
				ID: name, DeletedAt: api.Time{Time: now.Add(-time.Duration(i+1) * time.Hour)},
				RecycleBinPurgedScheduledAt: api.Time{Time: now.Add(20 * 24 * time.Hour)},
				VaultProject:                api.RecycledProject{ID: "p" + name, Name: name},
			})
		}
		return &api.RecycleBin{Items: items, Total: api.Int(len(items))}, nil
	}}
	env := pagetest.Env(t, fake, false)
	m := New(env.WithConn(&account.Conn{Profile: "p", Workspace: "W"}), Config{Start: "recyclebin", Getenv: func(string) string { return "" },
		Routes: []Route{{Name: "recyclebin", New: recyclebinview.New}}})
	drive(m, tea.WindowSizeMsg{Width: 100, Height: 20})
	runCmd(m, m.Init())
	if !strings.Contains(m.View(), "Zeta Matter") {
		t.Fatalf("bin not loaded:\n%s", m.View())
	}
	return m
}

func reject(t *testing.T, m *Model) {
	t.Helper()
	press(m, "m")
	for range 36 {
		press(m, "backspace") // the input opens with the filter applied
	}
	press(m, "n", "o", "p", "e", "enter")
	if !strings.Contains(m.statusView(), rejected) {
		t.Fatalf("no rejection in the status line:\n%s", m.View())
	}
}

// Issue 19 case 10: the error about a rejected client-matter UUID belongs
// to that input. It stays while the user corrects the value, and goes once
// the page does something else that works: a filter, a sort, a clear.
func TestPageErrorLeavesWithTheStateThatCausedIt(t *testing.T) {
	for _, c := range []struct {
		name          string
		before, after []string
	}{
		{"filter", nil, []string{"esc", "/", "A", "l", "enter"}},
		{"sort", nil, []string{"esc", "o"}},
		{"clear", []string{"m", "1", "2", "3", "e", "4", "5", "6", "7", "-", "e", "8", "9", "b", "-", "1", "2", "d", "3", "-", "a", "4", "5", "6", "-", "4", "2", "6", "6", "1", "4", "1", "7", "4", "0", "0", "0", "enter"},
			[]string{"esc", "esc"}}, // the input closes, then esc clears the applied filter
		{"valid UUID", nil, []string{"backspace", "backspace", "backspace", "backspace"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := binApp(t)
			press(m, c.before...)
			reject(t, m)
			press(m, "x") // correcting the value: the example stays in view
			if !strings.Contains(m.statusView(), rejected) {
				t.Fatalf("error gone while the value is corrected:\n%s", m.View())
			}
			press(m, "backspace")
			press(m, c.after...)
			if c.name == "valid UUID" {
				for _, r := range "123e4567-e89b-12d3-a456-426614174000" {
					press(m, string(r))
				}
				press(m, "enter")
			}
			if v := m.statusView(); strings.Contains(v, rejected) {
				t.Errorf("after a %s the old error stays: %q", c.name, v)
			}
		})
	}
}

// An error the root itself reports (a task that failed) is not the page's:
// a sort on the page does not hide it.
func TestRootErrorOutlivesPageKeys(t *testing.T) {
	m := binApp(t)
	m.setStatus(page.StatusMsg{Err: errors.New("delete project X failed: 500")})
	press(m, "o")
	if !strings.Contains(m.statusView(), "delete project X failed") {
		t.Errorf("task error hidden by a sort: %q", m.statusView())
	}
}

// drive delivers msg and what its commands answer, batches included, but
// not the clock and spinner ticks, which re-arm for as long as a page shows
// time (the bin's countdowns): the test would never end.
func drive(m *Model, msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, page.ClockTick, spinner.TickMsg:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			runCmd(m, c)
		}
		return
	}
	_, cmd := m.Update(msg)
	runCmd(m, cmd)
}

func runCmd(m *Model, cmd tea.Cmd) {
	if cmd != nil {
		drive(m, cmd())
	}
}

func press(m *Model, keys ...string) {
	for _, k := range keys {
		drive(m, pagetest.Key(k))
	}
}
