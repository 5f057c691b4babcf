package uploadview_test

import (
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestJournalFailureIsTheTaskOutcome: when the journal cannot record a
// request's answer (a full disk), the upload task ends as a failure that
// says so and what to run, not as "upload: 0 uploaded" with the cause
// appended to an ordinary outcome.
func TestJournalFailureIsTheTaskOutcome(t *testing.T) {
	r := newRig(t, false)
	db, err := sql.Open("sqlite", r.storePath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER disk_full BEFORE UPDATE OF done_at ON upload_batches
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(140, 24))
	waitFor(t, tm, "Upload to \"Inbox\"")
	tm.Type(filepath.Join(r.dir, "exports"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "2 files")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 2 to confirm")
	tm.Type("2")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "failed", "could not be recorded", "upload --resume")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
