package e2e

import (
	"strings"
	"testing"
)

// TestConsoleWithoutTerminal starts the console with stdin from /dev/null
// inside a terminal (tmux): one line saying what to do instead, exit 2, and
// the terminal left as it was (no alternate screen, cursor visible). Piped
// to a file, the same line and status.
func TestConsoleWithoutTerminal(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	const want = "the console needs a terminal; use the headless commands or --json"

	s := startTmux(t, []string{"VAULTDECK_HOME=" + t.TempDir(), "TERM=xterm-256color"},
		"sh", "-c", bin+` demo </dev/null; echo "EXITED $?"; sleep 600`)
	sc := s.waitForText("EXITED")
	if !strings.Contains(sc, want) || !strings.Contains(sc, "EXITED 2") {
		t.Errorf("screen:\n%s", sc)
	}
	if strings.Contains(sc, "epoll") {
		t.Errorf("low-level error shown:\n%s", sc)
	}
	state := strings.TrimSpace(s.run("display-message", "-p", "-t", "0", "#{alternate_on} #{cursor_flag}"))
	if state != "0 1" {
		t.Errorf("terminal left with alternate_on/cursor_flag = %q, want \"0 1\"", state)
	}

	env := []string{"VAULTDECK_HOME=" + t.TempDir()}
	for _, args := range [][]string{{"demo"}, {"--read-only"}, {}} {
		out, stderr, code := vd(t, bin, append(env, "VAULTDECK_TOKEN=x", "VAULTDECK_BASE_URL=http://127.0.0.1:9"), "", args...)
		if code != 2 || strings.TrimSpace(stderr) != "vaultdeck: "+want || out != "" {
			t.Errorf("%v without a terminal: code %d, stdout %q, stderr %q", args, code, out, stderr)
		}
	}
}
