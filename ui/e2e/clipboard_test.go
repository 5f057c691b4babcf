package e2e

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

var loadedRows = regexp.MustCompile(`Projects · [1-9][0-9]* of`)

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// TestCopyInsideTmux copies inside tmux as a k9s user would: tmux with
// `set-clipboard on` must receive the ID (it lands in tmux's paste buffer
// and goes on to the outer terminal); marked rows are copied together, one
// ID per line; Y shows the ID whole on screen.
func TestCopyInsideTmux(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := startTmux(t, []string{"VAULTDECK_HOME=" + t.TempDir(), "TERM=xterm-256color"},
		"sh", "-c", bin+` demo; echo "EXITED $?"; sleep 600`)
	s.run("set-option", "-g", "set-clipboard", "on")
	// The first frame comes before the demo's data: wait for rows to copy.
	s.waitFor("the projects loaded", func(sc string) bool { return loadedRows.MatchString(sc) })

	s.keys("y")
	s.waitForText("sent ")
	buf := s.buffer()
	if !uuidRE.MatchString(buf) {
		t.Fatalf("tmux paste buffer after y = %q, want the selected project's ID", buf)
	}
	sc := s.screen()
	if strings.Contains(sc, "copied") {
		t.Errorf("status claims more than it knows:\n%s", sc)
	}

	// Y: the same ID, whole, on a line of its own.
	s.keys("Y")
	sc = s.waitForText("select with the mouse")
	if !strings.Contains(sc, "\n"+buf) && !strings.HasPrefix(sc, buf) {
		found := false
		for _, l := range strings.Split(sc, "\n") {
			if strings.TrimSpace(l) == buf {
				found = true
			}
		}
		if !found {
			t.Errorf("Y does not show %s on a line of its own:\n%s", buf, sc)
		}
	}
	s.keys("Escape")
	s.waitForText("Projects ·")

	// Two marked rows: copied together, one ID per line.
	s.keys("x")
	s.keys("j")
	s.keys("x")
	s.waitForText("2 marked")
	s.keys("y")
	s.waitForText("sent 2 IDs")
	lines := strings.Split(s.buffer(), "\n")
	if len(lines) != 2 || lines[0] != buf || !uuidRE.MatchString(lines[1]) || lines[1] == buf {
		t.Errorf("marked copy = %q, want %s and the next row's ID", lines, buf)
	}
	s.keys("q")
	s.waitForText("EXITED 0")
}

// buffer is tmux's most recent paste buffer ("" when there is none).
func (s *tmuxSession) buffer() string {
	s.t.Helper()
	out, err := exec.Command("tmux", "-S", s.socket, "show-buffer").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
