package uploadview_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/uploadview"
)

// Issue 19 case 13: `:upload PROJECT_ID` looks the project's name up (as
// `:project` does) and titles the page with it, not with the ID; and once
// the upload is done, the projects list below shows the new file count
// without `r`.
func TestUploadByIDNamesTheProjectAndRefreshesTheList(t *testing.T) {
	r := newRig(t, false)
	env := r.env
	m := app.New(env.WithConn(&account.Conn{Profile: "p", DataProfile: "p", Where: "sim", Workspace: "W"}), app.Config{Start: "projects",
		Routes: []app.Route{{Name: "projects", New: projectsview.New}, {Name: "project", New: projectview.New, FromRecord: projectview.Record}, {Name: "upload", New: uploadview.New}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "Inbox")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":upload " + r.project)})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, `Upload to "Inbox"`)
	os.WriteFile(filepath.Join(r.dir, "one.pdf"), []byte("one"), 0o644)
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(filepath.Join(r.dir, "one.pdf"))})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "1 file")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 1 to confirm")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("1")})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "upload: 1 uploaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == "Inbox" && f[1] == "1" {
				return true
			}
		}
		return false
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// An ID that no project of the workspace has is refused once the lookup
// says so, before any path is read or file sent.
func TestUploadToUnknownIDIsRefused(t *testing.T) {
	r := newRig(t, false)
	m := app.New(r.env.WithConn(&account.Conn{Profile: "p", DataProfile: "p", Where: "sim", Workspace: "W"}), app.Config{Start: "upload",
		StartArg: "123e4567-e89b-12d3-a456-426614174000", Routes: []app.Route{{Name: "upload", New: uploadview.New}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	waitFor(t, tm, "no project with ID 123e4567-e89b-12d3-a456-426614174000")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// Issue 19 case 8: the summary ("… · 1 refused · 1 skipped (hid" at 120
// columns) and a refusal's reason wrap instead of being cut at the edge.
func TestUploadSummaryNeverCut(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		r := newRig(t, false)
		long := "Meridian Telecom v. Brightline Ltd — Supply Agreement Arbitration (Phase II)"
		pid, _ := r.sim.AddProject(sim.ProjectSpec{Name: long})
		big := filepath.Join(r.dir, "exports", "sub", "a-rather-long-file-name-for-the-deposition-bundle.pdf")
		f, _ := os.Create(big)
		f.Truncate(api.MaxFileBytes + 1) // sparse: refused for its size
		f.Close()
		m := app.New(r.env.WithConn(&account.Conn{Profile: "p", DataProfile: "p", Where: "sim", Workspace: "W"}), app.Config{Start: "upload",
			StartArg: pid + " " + long, Routes: []app.Route{{Name: "upload", New: uploadview.New}}})
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(size[0], size[1]))
		waitFor(t, tm, "duplicate mode: skip")
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(filepath.Join(r.dir, "exports"))})
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitFor(t, tm, "enter asks for the file count")
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		v := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
		for i, l := range strings.Split(v, "\n") {
			if w := ansi.StringWidth(l); w > size[0] { // the terminal cuts it there
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
		}
		flat := strings.Join(strings.Fields(v), " ")
		for _, want := range []string{"2 files", "1 refused", "1 skipped (hidden or links)", "per-file limit", long} {
			if !strings.Contains(flat, want) {
				t.Errorf("%dx%d: %q missing or cut:\n%s", size[0], size[1], want, v)
			}
		}
	}
}

// The project page the upload was started from shows the new file count
// when the user comes back to it, without `r`.
func TestProjectPageShowsTheNewCountAfterAnUpload(t *testing.T) {
	r := newRig(t, false)
	m := app.New(r.env.WithConn(&account.Conn{Profile: "p", DataProfile: "p", Where: "sim", Workspace: "W"}), app.Config{Start: "project", StartArg: r.project,
		Routes: []app.Route{{Name: "project", New: projectview.New, FromRecord: projectview.Record}, {Name: "upload", New: uploadview.New}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "Inbox · ", "Users")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("u")})
	waitFor(t, tm, `Upload to "Inbox"`)
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(filepath.Join(r.dir, "exports", "sub"))})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "1 file, 26 B")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 1 to confirm")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("1")})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "upload: 1 uploaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "files 1/100000", "Users") // the head's use of the limits, read again
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

// The progress bar and its percentage fit the terminal: at 80 columns the
// line read "████…████ 100" (the bar took width-4 columns and " 100%" five),
// so the terminal cut the percent sign; a number must not be cut.
func TestProgressLineFits(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		r := newRig(t, false)
		tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(size[0], size[1]))
		waitFor(t, tm, "duplicate mode: skip")
		tm.Type(filepath.Join(r.dir, "exports"))
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitFor(t, tm, "enter asks for the file count")
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitFor(t, tm, "Type 2 to confirm")
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("2")})
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitFor(t, tm, "upload: 2 uploaded")
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		v := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
		bar := false
		for i, l := range strings.Split(v, "\n") {
			if w := ansi.StringWidth(l); w > size[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", size[0], size[1], i, w, l)
			}
			bar = bar || strings.HasSuffix(strings.TrimRight(ansi.Strip(l), " "), " 100%")
		}
		if !bar {
			t.Errorf("%dx%d: no progress line ending in 100%%:\n%s", size[0], size[1], v)
		}
	}
}
