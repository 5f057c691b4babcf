package console

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestScreensHaveOneClock: the golden screens' client counts its budget on
// the test's pinned clock, not the machine's. The file-status golden once
// read "resets in 59s" instead of "1m01s" on a loaded machine: the client
// recorded its sends on the wall clock and the header measured the reset
// from it, two seconds later. On the pinned clock the oldest send leaves
// the window exactly a window after the pinned now, however long the
// machine took.
func TestScreensHaveOneClock(t *testing.T) {
	s := newScreen(t, false)
	tm := s.open(t, "project", projectID(s), 80, 24, "tab files", "1/")
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	waitFor(t, tm, "enter file status")
	final(t, tm)
	b := s.opts.Backend.Budget(api.CategoryVault)
	if want := time.Minute + time.Second; b.ResetIn != want || b.Remaining == b.Limit {
		t.Fatalf("vault budget after the file list: %d/%d left, resets in %v; want some used and %v (the pinned clock's window)", b.Remaining, b.Limit, b.ResetIn, want)
	}
}
