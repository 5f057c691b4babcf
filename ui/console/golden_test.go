package console

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldenScreens keeps every view at 80x24, on the simulator's seeded
// data with a pinned clock and the ASCII colour profile, so a change that
// cuts a number, a reason or a key off the screen shows up as a diff.
// `go test ./ui/console -run TestGoldenScreens -update` rewrites them; read
// each one before committing it.
func TestGoldenScreens(t *testing.T) { goldenScreens(t, 80, 24, nil) }

// TestGoldenScreensNarrow keeps the main views at 60x16, where the column
// layout decides most: names keep the room, dates shorten and counts go
// first, the e-mail domain is said once.
func TestGoldenScreensNarrow(t *testing.T) {
	goldenScreens(t, 60, 16, []string{"projects", "project_users", "project_files", "recycle_bin", "file_status", "audit", "matters"})
}

type goldenCase struct {
	name  string
	route string
	arg   func(s *screen) string
	steps []step
}

// goldenScreens runs the cases named in only (all when nil) at w x h.
func goldenScreens(t *testing.T, w, h int, only []string) {
	keys := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	cases := []goldenCase{
		{name: "projects", route: "projects", steps: []step{{wait: "12 of 12 loaded"}}},
		{name: "project_users", route: "project", arg: projectID, steps: []step{{wait: "tab files", also: "1/"}}},
		{name: "project_files", route: "project", arg: projectID, steps: []step{{wait: "tab files", also: "1/"},
			{send: []tea.Msg{tea.KeyMsg{Type: tea.KeyTab}}, wait: "enter file status", also: "1/"}}},
		{name: "project_delete_dialog", route: "project", arg: projectID, steps: []step{{wait: "tab files", also: "1/"},
			{send: []tea.Msg{keys("D")}, wait: "Delete project"}}},
		{name: "recycle_bin", route: "bin", steps: []step{{wait: "30 entries"}}},
		{name: "file_status", route: "project", arg: projectID, steps: []step{{wait: "tab files", also: "1/"},
			{send: []tea.Msg{tea.KeyMsg{Type: tea.KeyTab}}, wait: "enter file status", also: "1/"},
			{send: []tea.Msg{keys("s")}, wait: "next poll in"}}},
		{name: "upload", route: "upload", arg: func(s *screen) string { p := s.project(t); return p.ID + " " + p.Name },
			steps: []step{{wait: "path:"}}},
		{name: "upload_summary", route: "upload", arg: func(s *screen) string { p := s.project(t); return p.ID + " " + p.Name },
			steps: []step{{wait: "path:"}, {send: []tea.Msg{keys("testdata/upload"), tea.KeyMsg{Type: tea.KeyEnter}}, wait: "2 files"}}},
		// at 80 columns the mirror's state gives way to the count of own reads hidden
		{name: "audit", route: "audit", steps: []step{{wait: "own reads hidden", also: "1/"}}},
		{name: "matters", route: "matters", steps: []step{{wait: "Matter receipts"}}},
		{name: "help", route: "projects", steps: []step{{wait: "12 of 12 loaded"}, {send: []tea.Msg{keys("?")}, wait: "close help"}}},
	}
	for _, c := range cases {
		if only != nil && !slices.Contains(only, c.name) {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			s := newScreen(t, false)
			arg := ""
			if c.arg != nil {
				arg = c.arg(s)
			}
			tm := s.open(t, c.route, arg, w, h)
			for _, st := range c.steps {
				for _, msg := range st.send {
					tm.Send(msg)
				}
				waitFor(t, tm, st.wait, st.also)
			}
			checkScreenSize(t, final(t, tm), w, h)
		})
	}
}

// checkScreen holds a screen to 24 lines of at most 80 columns and to its
// golden file.
func checkScreen(t *testing.T, v string) { t.Helper(); checkScreenSize(t, v, 80, 24) }

// checkScreenSize holds a screen to h lines of at most w columns and to
// its golden file.
func checkScreenSize(t *testing.T, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Errorf("a line of %d columns: %q", ansi.StringWidth(l), l)
		}
	}
	golden.RequireEqual(t, []byte(v))
}

// step sends messages, then waits for texts on screen (in one wait: a
// frame read for one text is not read again for the next).
type step struct {
	send       []tea.Msg
	wait, also string
}

func projectID(s *screen) string { return s.project(nil).ID }
