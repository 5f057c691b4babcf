package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestConsoleReopensASavedAuditView (issue 42): against `vaultdeck sim`,
// the audit view at its newest says `audit --limit N --newest
// --hide-own-reads`; V saves it; :NAME reopens it saying the same line
// (its own reads of the log written between the two loads do not take
// the rows' places: it came back at --limit N-3 with other rows), with N
// rows, and `vaultdeck view NAME --csv` lists N. At 120x40, keys one at
// a time, quick enough that the first view's mirror sync is cut off
// part way (a window of the service's tail alone over that mirror said
// it was the log's start: 192 rows, "the whole log").
func TestConsoleReopensASavedAuditView(t *testing.T) {
	t.Parallel()
	c := startSimConsole(t, "120", "40")
	bin, env, s := c.bin, c.env, c.s
	s.keys(":")
	s.literal("audit")
	s.keys("Enter")
	first := s.waitForText("newest first")
	said := func() string {
		s.keys("C")
		sc := s.waitForText("--csv")
		s.keys("Escape")
		m := regexp.MustCompile(`vaultdeck audit --limit (\d+) --newest --hide-own-reads --base-url`).FindStringSubmatch(strings.Join(strings.Fields(strings.ReplaceAll(sc, "│", " ")), " "))
		if m == nil {
			t.Fatalf("C does not say the newest N:\n%s", sc)
		}
		return m[1]
	}
	n := said()
	s.keys("V")
	s.waitForText("save view as")
	s.literal("recent")
	s.keys("Enter")
	s.waitForText(`saved the view "recent"`)
	s.keys(":")
	s.literal("projects")
	s.keys("Enter")
	s.waitForText("Projects")
	s.keys(":")
	s.literal("recent")
	s.keys("Enter")
	sc := s.waitForText("own reads hidden")
	if !strings.Contains(sc, n+" newest first") {
		t.Errorf(":recent does not show the newest %s (the first view's mirror was syncing: %q):\n%s", n, strings.Split(first, "\n")[2], sc)
	}
	if !strings.Contains(sc, "/"+n) {
		t.Errorf(":recent does not count %s rows:\n%s", n, sc)
	}
	if again := said(); again != n {
		t.Errorf(":recent says --limit %s, saved as --limit %s", again, n)
	}
	out, stderr, code := vd(t, bin, env, "", "view", "recent", "--csv")
	if rows := strings.Count(out, "\n") - 1; code != 0 || rows != atoi(n) {
		t.Errorf("view recent --csv: exit %d, %d rows, not %s\n%s", code, rows, n, stderr)
	}
	s.keys("q")
	s.waitForText("EXITED 0")
}
