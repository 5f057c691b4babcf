package app

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// A status line longer than the terminal wraps onto a second line, and
// the body gives it the line, instead of being cut at the edge: at 80
// columns R in File status read "none of the 1 selected file was uploaded
// by vaultdeck here: no local path is kn…", the reason cut. An error that
// two lines cannot hold keeps its short form and `!`.
func TestLongStatusWrapsInsteadOfCut(t *testing.T) {
	m, _ := newApp(t, false)
	send(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	const notice = "none of the 1 selected file was uploaded by vaultdeck here: no local path is known, so there is nothing to re-upload"
	for _, st := range []page.StatusMsg{{Text: notice}, {Err: errors.New(notice)}} {
		send(m, st)
		v := ansi.Strip(m.View())
		lines := strings.Split(v, "\n")
		if len(lines) != 24 {
			t.Errorf("%d lines, want 24:\n%s", len(lines), v)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > 80 {
				t.Errorf("a line of %d columns: %q", ansi.StringWidth(l), l)
			}
		}
		if flat := strings.Join(strings.Fields(v), " "); !strings.Contains(flat, notice) {
			t.Errorf("the status was cut:\n%s", v)
		}
	}
	// a UUID is one word: wrapped at spaces, never at its hyphens (the
	// line read "… 123e4567-e89b-12d3-a456-" and "426614174000) │ …")
	const uuidErr = `"hello", "world" are not file IDs (UUIDs like 123e4567-e89b-12d3-a456-426614174000)`
	send(m, page.StatusMsg{Err: errors.New(uuidErr)})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "123e4567-e89b-12d3-a456-426614174000") {
		t.Errorf("the UUID was broken:\n%s", v)
	}
}

// A refused command (":nosuch", ":files hello,world") is an error of the
// command line, which is closed: it leaves at the next key that acts on
// the page under it, as a page's own error does. It stayed through j, a
// filter and a sort on Projects until another status replaced it.
func TestRefusedCommandErrorLeavesAtTheNextKey(t *testing.T) {
	m, _ := newApp(t, false)
	send(m, pagetest.Key(":"))
	for _, r := range "nosuch" {
		send(m, pagetest.Key(string(r)))
	}
	send(m, pagetest.Key("enter"))
	if !strings.Contains(m.View(), "nosuch") {
		t.Fatalf("no refusal on screen:\n%s", m.View())
	}
	send(m, pagetest.Key("j"))
	if strings.Contains(m.View(), "nosuch") {
		t.Errorf("the refused command's error stayed after j:\n%s", m.View())
	}
}
