package cli

import (
	"regexp"
	"strings"
	"testing"
)

// TestTableTimeColumnsSayTheirZone (issue 41: one rule for times in human
// output, labelled): every column of a listing's table that holds times
// says its zone in its title ("DELETED (UTC)"), as audit's "TIME (UTC)"
// did alone, and its cells do not repeat it.
func TestTableTimeColumnsSayTheirZone(t *testing.T) {
	_, vd := shapeSim(t)
	pid := strings.TrimSpace(vd("projects", "--jq", ".[0].id").stdout)
	isTime := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$`)
	cols := regexp.MustCompile(`\S+(?: \S+)*`) // cells: runs of words one space apart
	checked := 0
	for _, args := range [][]string{{"projects"}, {"files", pid}, {"recycle-bin"}, {"recycle-bin", "--purging-within", "30d"}, {"audit", "--limit", "5"}} {
		r := vd(args...)
		lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
		if r.code != 0 || len(lines) < 3 {
			t.Fatalf("%q: exit %d %q", args, r.code, r.stderr)
		}
		header := cols.FindAllStringIndex(lines[0], -1)
		for _, line := range lines[1 : len(lines)-1] { // the last line is the count
			for _, at := range header {
				if at[0] >= len(line) {
					continue
				}
				cell := cols.FindString(line[at[0]:])
				title := lines[0][at[0]:at[1]]
				if isTime.MatchString(cell) {
					checked++
					if !strings.HasSuffix(title, " (UTC)") {
						t.Errorf("%q: column %q holds times (%q) and does not say their zone", args, title, cell)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no time cell found: the walk is not reading the tables")
	}
}
