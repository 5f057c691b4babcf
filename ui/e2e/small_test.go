package e2e

import (
	"strings"
	"testing"
)

// TestSmallTerminal40x12 drives the demo at 40x12: help scrolls to its end,
// and the delete prompt of a project with a long em-dash name is on screen
// and accepts the name typed with a plain hyphen in lower case.
func TestSmallTerminal40x12(t *testing.T) {
	t.Parallel()
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
	// At 40 columns the name gives way in the middle and keeps both ends
	// (issue 29.2: "Northwi…acklog", beside the file count and size, which
	// stay), so its start and its end are looked for.
	s.waitFor("the filtered list", func(sc string) bool {
		return strings.Contains(sc, "filter: Northwind") && strings.Contains(sc, "1/1") &&
			strings.Contains(sc, "Northwi") && strings.Contains(sc, "acklog")
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
