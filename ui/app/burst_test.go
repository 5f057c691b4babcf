package app_test

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// burst is what Bubble Tea v1 delivers when several keys arrive in one read
// (fast typing, key repeat over SSH, tmux send-keys): one message, many runes.
func burst(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// TestKeyBursts sends every sequence as ONE key message; each must act
// exactly as the same keys typed one at a time.
func TestKeyBursts(t *testing.T) {
	tm := teatest.NewTestModel(t, realApp(t, "projects"), teatest.WithInitialTermSize(110, 16))
	waitFor(t, tm, "12 of 12 loaded")

	tm.Send(burst("jjjjjjjjjj"))
	waitFor(t, tm, "11/12") // cursor on row 11, not row 2 or row 1

	tm.Send(burst("/Acme"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, `name contains "Acme"`)

	tm.Send(burst(":bin"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Recycle bin ·")

	tm.Send(burst("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestPasteIsNeverCommands: a bracketed paste while no input has focus is
// dropped (pasting "qqq" must not quit); into a focused input it goes whole.
func TestPasteIsNeverCommands(t *testing.T) {
	tm := teatest.NewTestModel(t, realApp(t, "projects"), teatest.WithInitialTermSize(110, 16))
	waitFor(t, tm, "12 of 12 loaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q:jj"), Paste: true})
	tm.Send(burst("/"))
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Bellhaven"), Paste: true})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, `name contains "Bellhaven"`)
	tm.Send(burst("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

// TestEscAndKeyInOneRead: with help open, Esc and q in one read (Bubble Tea
// v1 makes it Alt+q) close help and quit, as the two keys typed apart do.
func TestEscAndKeyInOneRead(t *testing.T) {
	tm := teatest.NewTestModel(t, realApp(t, "projects"), teatest.WithInitialTermSize(110, 16))
	waitFor(t, tm, "12 of 12 loaded")
	tm.Send(burst("?"))
	waitFor(t, tm, "reverse sort")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q"), Alt: true})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if v := fm.View(); strings.Contains(v, "reverse sort") {
		t.Errorf("help still open at the end:\n%s", v)
	}
}
