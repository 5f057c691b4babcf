package widgets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// TestConfirmFoldsWhatKeyboardsType: seeded names carry an em dash and
// curly quotes that most keyboards cannot type; the typed name is compared
// after folding dashes, quotes, whitespace and case, so people need no paste.
func TestConfirmFoldsWhatKeyboardsType(t *testing.T) {
	cases := []struct {
		expect, typed string
		ok            bool
	}{
		{"Northwind Data Room — Processing Backlog", "northwind data room - processing backlog", true},
		{"Northwind Data Room — Processing Backlog", "Northwind Data Room -- Processing Backlog", false},
		{"O’Brien “Alpha” – 2024", `o'brien "alpha" - 2024`, true},
		{"Acme\u00a0 Merger", "  acme merger ", true},
		{"Acme Merger", "Acme", false},
		{"Acme", "acme", true},
		{"", "", false}, // an empty target never confirms
		{"   ", "", false},
	}
	for _, c := range cases {
		d := NewConfirm(testTheme(t), "Delete project", "m", c.expect)
		typeInto(d, c.typed)
		got := d.Update(enter) == Confirmed
		if got != c.ok {
			t.Errorf("expect %q, typed %q: confirmed %v, want %v", c.expect, c.typed, got, c.ok)
		}
	}
}

// TestConfirmPromptStaysOnScreen: at 40x12 (a body of 9 lines) with a long
// name and message, the line to type into and the instruction are inside
// the height; the message scrolls instead.
func TestConfirmPromptStaysOnScreen(t *testing.T) {
	name := "Northwind Data Room — Processing Backlog"
	msg := "Delete \"" + name + "\" (1204 files)? It moves to the workspace recycle bin and is purged later. " +
		strings.Repeat("Some of its files are still processing. ", 4)
	for _, size := range [][2]int{{40, 9}, {80, 21}, {24, 9}, {30, 3}} {
		c := NewConfirm(testTheme(t), "Delete project", msg, name)
		typeInto(c, "wrong")
		c.Update(enter)
		v := c.ViewSized(size[0], size[1])
		if h := lipgloss.Height(v); h > size[1] {
			t.Errorf("%dx%d: dialog is %d lines:\n%s", size[0], size[1], h, v)
		}
		if w := lipgloss.Width(v); w > size[0] {
			t.Errorf("%dx%d: dialog is %d wide:\n%s", size[0], size[1], w, v)
		}
		wants := []string{"> wrong", "to cancel", "does not match"}
		if size[1] < 4 {
			wants = []string{"> wrong"} // not even room for the instruction
		}
		for _, want := range wants {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: %q is off screen:\n%s", size[0], size[1], want, v)
			}
		}
	}
}
