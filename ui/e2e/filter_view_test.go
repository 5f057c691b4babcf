package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestConsoleSavesAFilteredSortedView (issue 42): in the console against
// `vaultdeck sim`, a / filter that matches deleters (no --name can say it)
// and a sort by files, largest first, are said by C as --filter and
// --sort; V saves them; `vaultdeck view NAME --csv` lists as many rows as
// the screen counts, in the screen's order (files descending), and the
// pasted C line lists the same; :NAME reopens the view filtered and
// sorted. At 80x24, keys one at a time.
func TestConsoleSavesAFilteredSortedView(t *testing.T) {
	t.Parallel()
	c := startSimConsole(t, "80", "24")
	bin, sim, env, s := c.bin, c.sim, c.env, c.s
	s.keys(":")
	s.literal("bin")
	s.keys("Enter")
	s.waitForText("Recycle bin")
	s.keys("/")
	for _, r := range "okafor" {
		s.literal(string(r))
	}
	s.keys("Enter")
	sc := s.waitForText("filter: okafor")
	for range 5 { // project, deleted by, deleted at, purge in, files
		s.keys("o")
	}
	s.waitForText("sort: files")
	s.keys("O") // the other way: largest first
	sc = s.waitForText("sort: files ▼")
	m := regexp.MustCompile(`\d+/(\d+) · of \d+ loaded`).FindStringSubmatch(sc) // the cursor's row / the rows shown
	if m == nil || m[1] == "0" {
		t.Fatalf("no filtered count on screen:\n%s", sc)
	}
	s.keys("C")
	sc = s.waitForText("--csv")
	flat := strings.Join(strings.Fields(strings.ReplaceAll(sc, "│", " ")), " ")
	if !strings.Contains(flat, "vaultdeck recycle-bin --filter okafor --sort files,desc --base-url "+sim.base+" --csv") || strings.Contains(sc, "not in this command") {
		t.Fatalf("C does not say the filter and the sort:\n%s", sc)
	}
	s.keys("Escape")
	s.keys("V")
	s.waitForText("save view as")
	s.literal("okafor")
	s.keys("Enter")
	s.waitForText(`saved the view "okafor"`)

	saved, stderr, code := vd(t, bin, env, "", "view", "okafor", "--csv")
	pasted, _, _ := vd(t, bin, env, "", "recycle-bin", "--filter", "okafor", "--sort", "files,desc", "--base-url", sim.base, "--csv")
	lines := strings.Split(strings.TrimSpace(saved), "\n")
	if code != 0 || saved != pasted || len(lines)-1 != atoi(m[1]) {
		t.Fatalf("view okafor --csv: exit %d, %d rows (the screen counts %s), same as the C line: %v\n%s%s", code, len(lines)-1, m[1], saved == pasted, saved, stderr)
	}
	prev := -1
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		n := atoi(f[len(f)-3]) // files, knowledge base, project id
		if !strings.Contains(strings.ToLower(l), "okafor") || (prev >= 0 && n > prev) {
			t.Errorf("a row not okafor's or out of order (files %d after %d): %s", n, prev, l)
		}
		prev = n
	}

	s.keys("Escape", "Escape")
	s.keys(":")
	s.literal("okafor")
	s.keys("Enter")
	sc = s.waitForText("filter: okafor")
	if !strings.Contains(sc, "sort: files ▼") || !strings.Contains(sc, "/"+m[1]+" · of") {
		t.Errorf(":okafor did not reopen filtered and sorted:\n%s", sc)
	}
	s.keys("q")
	s.waitForText("EXITED 0")
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return -1
		}
		n = n*10 + int(r-'0')
	}
	return n
}
