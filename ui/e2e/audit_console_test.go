package e2e

import (
	"strings"
	"testing"
)

// TestAuditConsoleTakesBursts drives the demo's audit view in tmux at
// 80x24 with keys sent in one read each, as fast typing delivers them:
// `t` and six `j` then enter apply the sixth type (it applied "(all
// types)"), a bad time in the @ prompt keeps it open and what follows goes
// on into it (":05" of "14:05" opened the command line), and A in the
// recycle bin's detail pane opens the audit log (it did nothing).
func TestAuditConsoleTakesBursts(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := startTmuxSized(t, "80", "24", []string{"VAULTDECK_HOME=" + t.TempDir(), "TERM=xterm-256color"},
		"sh", "-c", bin+` demo --open audit; echo "EXITED $?"; sleep 600`)
	s.waitForText("own reads hidden")

	s.keys("tjjjjjj", "Enter") // one read: t, six j, enter
	sc := s.waitForText("Audit log · type ")
	if strings.Contains(sc, "all entries") {
		t.Fatalf("t j×6 enter in one read did not apply a type:\n%s", sc)
	}

	s.keys("@2026-11-2x 14", "Enter")
	s.waitForText("not a date")
	s.literal(":05")
	sc = s.waitForText("2026-11-2x 14:05")
	if strings.Contains(sc, "there is no command") || !strings.Contains(sc, "jump to (UTC)") {
		t.Fatalf("what followed a bad time left the prompt:\n%s", sc)
	}
	s.keys("Escape")

	s.keys(":")
	s.literal("bin")
	s.keys("Enter")
	s.waitForText("A audit")
	s.keys("Enter")
	s.waitForText("A audit log")
	s.keys("A")
	s.waitForText("audit › recycle bin › audit")
	s.waitForText("user ")
}
