package uploadview_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// Issue 25, case 6, in the console: two files of one name from different
// folders are named before anything is sent, with what the mode does; and
// after the upload the page names the file that was replaced (replace) or
// skipped (skip), not only a count.
func TestUploadSaysSameNamesBeforeAndWhichAfter(t *testing.T) {
	for _, tc := range []struct {
		ctrlT        int
		mode, before string
		after        string
	}{
		{0, "skip", `only "exhibits/motion-1.pdf" is uploaded`, "skipped  pleadings/2026/motion-1.pdf"},
		{1, "replace", `the project keeps "pleadings/2026/motion-1.pdf"`, "replaced  exhibits/motion-1.pdf"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			r := newRig(t, false)
			root := filepath.Join(r.dir, "matter")
			for _, f := range []string{"exhibits/motion-1.pdf", "pleadings/2026/motion-1.pdf"} {
				os.MkdirAll(filepath.Dir(filepath.Join(root, f)), 0o755)
				os.WriteFile(filepath.Join(root, f), []byte("content of "+f), 0o644)
			}
			tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(160, 40))
			waitFor(t, tm, "duplicate mode: skip")
			for range tc.ctrlT {
				tm.Send(tea.KeyMsg{Type: tea.KeyCtrlT})
			}
			tm.Type(root)
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitFor(t, tm, "1 name in several folders", "with mode "+tc.mode, tc.before)
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitFor(t, tm, "Type 2 to confirm")
			tm.Type("2")
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitFor(t, tm, tc.after, "vaultdeck uploads 1")
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
			tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		})
	}
}
