package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

var deletedAtRE = regexp.MustCompile(`\d{4}-\d{2}-\d{2} \d{2}:\d{2}`)

// TestDemoRecycleBin is the session of a vault admin reviewing deletions:
// start the demo, jump to the recycle bin, check it is newest first, open an
// entry's details, filter by name, and quit.
func TestDemoRecycleBin(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	home := t.TempDir()
	// The shell line reports the exit status, so a crash cannot pass as a quit.
	s := startTmux(t, []string{"VAULTDECK_HOME=" + home, "TERM=xterm-256color"},
		"sh", "-c", bin+` demo; echo "EXITED $?"; sleep 600`)

	// A seeded project name carries "ESC[2J ESC[31m": it must show as inert
	// text. The wait is for the listing itself: "Projects ·" is on screen
	// while it still loads ("0 of 0 loaded"), which a loaded machine shows.
	s.waitForText("Project Falcon (URGENT)")

	// Keys go in as bursts (one write, one read), as fast typing and key
	// repeat over SSH arrive: each burst must act like the keys typed slowly.
	s.literal(":bin")
	s.keys("Enter")
	sc := s.waitFor("recycle-bin rows", func(sc string) bool {
		return strings.Contains(sc, "Recycle bin ·") && len(deletedAtRE.FindAllString(sc, -1)) >= 10
	})
	if !strings.Contains(sc, "projects › recycle bin") {
		t.Errorf("breadcrumb missing:\n%s", sc)
	}
	var stamps []time.Time
	for _, line := range strings.Split(sc, "\n") {
		if m := deletedAtRE.FindString(line); m != "" {
			ts, err := time.Parse("2006-01-02 15:04", m)
			if err != nil {
				t.Fatal(err)
			}
			stamps = append(stamps, ts)
		}
	}
	if !slices.IsSortedFunc(stamps, func(a, b time.Time) int { return b.Compare(a) }) {
		t.Errorf("recycle bin not ordered by deleted_at, newest first: %v\n%s", stamps, sc)
	}

	// Details of the selected (newest) entry: every field of it and of its project.
	s.keys("Enter")
	sc = s.waitForText("recycle_bin_purged_scheduled_at")
	for _, field := range []string{"deleted_by_user_email", "delete_source", "vault_project.created_at", "vault_project.files_count"} {
		if !strings.Contains(sc, field) {
			t.Errorf("detail pane lacks %s:\n%s", field, sc)
		}
	}
	s.keys("Escape")
	s.waitFor("detail pane closed", func(sc string) bool {
		return strings.Contains(sc, "Recycle bin ·") && !strings.Contains(sc, "recycle_bin_purged_scheduled_at")
	})

	s.literal("jjjjjjjjjj")
	s.waitFor("cursor on row 11", func(sc string) bool { return strings.Contains(sc, "\n11/") })

	s.literal("/larkspur")
	s.keys("Enter")
	sc = s.waitForText("filter: larkspur")
	rows := 0
	for _, line := range strings.Split(sc, "\n") {
		if deletedAtRE.MatchString(line) {
			rows++
			if !strings.Contains(strings.ToLower(line), "larkspur") {
				t.Errorf("row does not match the filter: %q", line)
			}
		}
	}
	if rows == 0 {
		t.Errorf("filter left no rows:\n%s", sc)
	}

	s.keys("q")
	s.waitForText("EXITED 0")
}
