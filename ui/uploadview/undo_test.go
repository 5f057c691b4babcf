package uploadview_test

import (
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestUndoTheRunFromItsPage: once the upload is done, X asks for the
// number of files it created and deletes exactly them (a delete_file
// write job), the page saying each outcome.
func TestUndoTheRunFromItsPage(t *testing.T) {
	r := newRig(t, false)
	tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "duplicate mode: skip")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(filepath.Join(r.dir, "exports"))})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "enter asks for the file count")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "upload: 2 uploaded")
	for _, f := range r.sim.LiveFiles(r.project) {
		r.sim.SetFileStatus(f.ID, "READY_TO_QUERY")
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("X")})
	waitFor(t, tm, "Undo this upload", "Type 2 to confirm")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "undo: 2 files: 2 deleted")
	if n := len(r.sim.LiveFiles(r.project)); n != 0 {
		t.Fatalf("%d files left after the undo", n)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
