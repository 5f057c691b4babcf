package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var sgrRE = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

// sgrParams lists the SGR parameters used in s (tmux's capture-pane -e).
func sgrParams(s string) map[int]bool {
	out := map[int]bool{}
	for _, m := range sgrRE.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.Split(m[1], ";") {
			if n, err := strconv.Atoi(p); err == nil {
				out[n] = true
			}
		}
	}
	return out
}

// TestNoColorKeepsCursorRow runs the demo with NO_COLOR=1 in tmux and reads
// the screen with its attributes: no colour at all, but the cursor row in
// reverse video, as with --no-color.
func TestNoColorKeepsCursorRow(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := startTmux(t, []string{"VAULTDECK_HOME=" + t.TempDir(), "TERM=xterm-256color", "NO_COLOR=1"},
		"sh", "-c", bin+` demo; echo "EXITED $?"; sleep 600`)
	s.waitForText("Acme Corp")
	sc := s.run("capture-pane", "-e", "-p", "-t", "0")
	var cursor string
	for _, line := range strings.Split(sc, "\n") {
		if strings.Contains(line, "Acme Corp") {
			cursor = line
		}
	}
	if !sgrParams(cursor)[7] {
		t.Errorf("the cursor row has no reverse video under NO_COLOR: %q", cursor)
	}
	for p := range sgrParams(sc) {
		if (p >= 30 && p <= 38) || (p >= 40 && p <= 48) || (p >= 90 && p <= 107) {
			t.Errorf("colour (SGR %d) on screen under NO_COLOR", p)
		}
	}
	s.keys("q")
	s.waitForText("EXITED 0")
}
