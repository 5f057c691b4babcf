package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// startTmuxSized is startTmux on a pane of w x h cells.
func startTmuxSized(t *testing.T, w, h string, env []string, command ...string) *tmuxSession {
	t.Helper()
	s := &tmuxSession{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock")}
	args := append([]string{"new-session", "-d", "-x", w, "-y", h, "--", "env"}, env...)
	s.run(append(args, command...)...)
	s.run("set-option", "-g", "remain-on-exit", "on")
	t.Cleanup(func() { _ = s.run("kill-server") })
	return s
}

// TestSmallTerminal40x12 drives the demo at 40x12: help scrolls to its end,
// and the delete prompt of a project with a long em-dash name is on screen
// and accepts the name typed with a plain hyphen in lower case.
func TestSmallTerminal40x12(t *testing.T) {
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := startTmuxSized(t, "40", "12", []string{"VAULTDECK_HOME=" + t.TempDir(), "TERM=xterm-256color"},
		"sh", "-c", bin+` demo; echo "EXITED $?"; sleep 600`)
	s.waitForText("Projects")

	s.keys("?")
	s.waitForText("(j/k)")
	s.keys("G")
	s.waitForText("press ? or esc")
	s.keys("Escape")
	s.waitFor("help closed", func(sc string) bool { return !strings.Contains(sc, "press ? or esc") })

	s.keys("/")
	s.literal("Northwind")
	s.keys("Enter")
	s.waitFor("the filtered list", func(sc string) bool {
		return strings.Contains(sc, "filter: Northwind") && strings.Contains(sc, "Northwind Data")
	})
	s.keys("Enter")
	s.waitForText("Users")
	s.keys("D")
	sc := s.waitForText("to confirm")
	if !strings.Contains(sc, "> ") {
		t.Fatalf("no input line on screen:\n%s", sc)
	}
	s.literal("northwind data room - processing backlog")
	s.keys("Enter")
	sc = s.waitFor("the dialog to close", func(sc string) bool { return !strings.Contains(sc, "to confirm") })
	if strings.Contains(sc, "does not match") {
		t.Errorf("the folded name was refused:\n%s", sc)
	}
	s.keys("q")
	s.waitForText("EXITED 0")
}
