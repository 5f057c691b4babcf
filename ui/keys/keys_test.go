package keys

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

func press(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func TestReadOnlyDisablesDelete(t *testing.T) {
	if !key.Matches(press("D"), New(false).Delete) {
		t.Fatal("D should delete in a writable session")
	}
	ro := New(true)
	if key.Matches(press("D"), ro.Delete) || ro.Delete.Enabled() {
		t.Fatal("D must not match in a read-only session")
	}
	for _, b := range Enabled(ro.Delete, ro.Up) {
		if b.Help().Desc == "delete project" {
			t.Error("help advertises delete in read-only")
		}
	}
}
