package uploadview_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// Issue 25, case 6, in the console: two files of one name from different
// folders are named before anything is sent, with what the mode does; and
// after the upload the page's table of the run's files names the file
// that was replaced (replace) or skipped (skip), not only a count.
func TestUploadSaysSameNamesBeforeAndWhichAfter(t *testing.T) {
	for _, tc := range []struct {
		ctrlT        int
		mode, before string
		after        string
	}{
		{0, "skip", `only "exhibits/motion-1.pdf" is uploaded`, `pleadings/2026/motion-1\.pdf +skipped `},
		{1, "replace", `the project keeps "pleadings/2026/motion-1.pdf"`, `exhibits/motion-1\.pdf +replaced `},
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
			// the run's files, each with its result, as `uploads 1` lists them
			after := regexp.MustCompile(tc.after)
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return after.Match(b) && bytes.Contains(b, []byte("every file of run 1")) },
				teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
			tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		})
	}
}
