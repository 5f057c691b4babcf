package e2e

import (
	"strings"
	"testing"
)

// TestDemoAccessView: `vaultdeck demo --scale large --no-rate-limit`
// crawls its simulator at start, and :access shows the snapshot as it
// finishes (no key needed), a person's projects with enter, esc back, and
// the changes tab, as a person uses it in tmux.
func TestDemoAccessView(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := startTmux(t, []string{"VAULTDECK_HOME=" + t.TempDir(), "TERM=xterm-256color"},
		"sh", "-c", bin+` demo --scale large --no-rate-limit; echo "EXITED $?"; sleep 600`)
	s.waitForText("Projects ·")
	s.literal(":access")
	s.keys("Enter")
	// "320 projects" alone matches the crawl's progress ("15/320 projects")
	sc := s.waitForText("snapshot 1")
	if !strings.Contains(sc, "snapshot 1") || !strings.Contains(sc, "PROJECTS") || !strings.Contains(sc, "enter projects") {
		t.Fatalf("people of the demo's snapshot:\n%s", sc)
	}
	s.keys("Enter")
	sc = s.waitForText("esc people")
	if !strings.Contains(sc, "ACCESS") || !strings.Contains(sc, "PROJECT ID") || !strings.Contains(sc, "projects ·") {
		t.Fatalf("a person's projects:\n%s", sc)
	}
	s.keys("Escape")
	s.waitForText("enter projects")
	s.keys("Tab")
	s.waitForText("changes show after the next crawl")
	s.keys("q")
	s.waitForText("EXITED 0")
}
