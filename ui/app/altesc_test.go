package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// altKey is what Bubble Tea v1 makes of Esc and a key arriving in one
// read (fast typing over SSH): the key, with Alt set.
func altKey(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s), Alt: true} }

// Esc then q, typed one at a time and in one burst, must do the same: close
// help, then quit.
func TestEscThenKeyInOneReadIsEscThenKey(t *testing.T) {
	for _, c := range []struct {
		name string
		keys []tea.KeyMsg
	}{
		{"one at a time", []tea.KeyMsg{pagetest.Key("esc"), pagetest.Key("q")}},
		{"one burst", []tea.KeyMsg{altKey("q")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _ := newApp(t, false)
			send(m, pagetest.Key("?"))
			if !m.help {
				t.Fatal("? did not open help")
			}
			var seen []tea.Msg
			for _, k := range c.keys {
				seen = append(seen, send(m, k)...)
			}
			if m.help {
				t.Error("help still open")
			}
			if len(seen) == 0 {
				t.Error("q did not quit")
			}
		})
	}
}

// The neighbourhood: Esc + ":rb" in one read closes help and opens the
// command line with "rb"; Esc + Esc (Alt+Esc) goes back twice; Esc + "jj"
// on a page (no help) is back, then j j for the page below.
func TestEscBurstsActAsTyped(t *testing.T) {
	m, _ := newApp(t, false)
	send(m, pagetest.Key("?"))
	send(m, altKey(":rb"))
	send(m, pagetest.Key("enter"))
	if m.help || !strings.Contains(m.View(), "projects › recyclebin") {
		t.Fatalf("esc+:rb in one read:\n%s", m.View())
	}
	send(m, altKey("?"))
	if !m.help || len(m.stack) != 1 {
		t.Fatalf("esc+? should go back to projects, then open help; help=%v stack %d", m.help, len(m.stack))
	}
	send(m, pagetest.Key("esc"))
	send(m, tea.KeyMsg{Type: tea.KeyEsc, Alt: true}) // esc esc in one read
	if m.help {
		t.Fatal("help open after esc")
	}
	send(m, pagetest.Key(":"))
	send(m, altKey("x"))
	if m.cmdline != nil {
		t.Errorf("esc+x in the command line should cancel it, then x goes to the page: %q", m.cmdline.Value())
	}
	top := m.Top().(*stub)
	if n := len(top.got); n == 0 || top.got[n-1].(tea.KeyMsg).String() != "x" {
		t.Errorf("x after esc did not reach the page: %v", top.got)
	}
}
