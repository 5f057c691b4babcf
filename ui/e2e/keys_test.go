package e2e

import (
	"strings"
	"testing"
)

// TestEscAndKeyTogether drives the demo in tmux at 80x24: Esc and q sent
// in one send-keys (one read, as fast typing over SSH delivers them) close
// help and quit, as the two keys sent apart do; the footer names the keys
// of the view on screen, and :files refuses a value that is not a file ID.
func TestEscAndKeyTogether(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := startTmuxSized(t, "80", "24", []string{"VAULTDECK_HOME=" + t.TempDir(), "TERM=xterm-256color"},
		"sh", "-c", bin+` demo; echo "EXITED $?"; sleep 600`)
	s.waitForText("enter open · / filter")

	// apart: help closes, the console stays
	s.keys("?")
	s.waitForText("esc close help")
	s.keys("Escape")
	s.waitForText("enter open · / filter")

	s.keys(":")
	s.literal("files hello,world")
	s.keys("Enter")
	sc := s.waitForText(`"hello", "world" are not file IDs`)
	if strings.Contains(sc, "File status") {
		t.Errorf(":files opened on values that are not IDs:\n%s", sc)
	}

	// together: Esc then q in one read (the error keeps the status line,
	// so help is known open by its scroll position)
	s.keys("?")
	s.waitForText("lines 1-")
	s.keys("Escape", "q")
	s.waitForText("EXITED 0")
}
