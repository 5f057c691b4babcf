package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestRecycleBinByDeleter: --by-deleter is one row a person who deleted
// (the console's b), in every format; with --purging-within only the
// entries within the window count; it refuses --deleted-by and --check
// before any request (the groups are of every deleter).
func TestRecycleBinByDeleter(t *testing.T) {
	h := purgeBin(time.Now()) // five deleters, one entry each
	r := runAgainst(t, h, "recycle-bin", "--by-deleter", "--json")
	var groups []struct {
		DeletedBy string `json:"deleted_by"`
		Projects  int    `json:"projects"`
		Within    int    `json:"purging_within"`
		Next      string `json:"next_purge_at"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &groups); r.code != 0 || err != nil || len(groups) != 5 {
		t.Fatalf("--by-deleter --json: %d %v %q %q", r.code, err, r.stdout, r.stderr)
	}
	within := 0
	for _, g := range groups {
		within += g.Within
		if g.Projects != 1 || (g.DeletedBy == "undated@firm.example") != (g.Next == "") {
			t.Errorf("group %+v", g)
		}
	}
	if within != 3 { // late (overdue), today, week: within the default 7d
		t.Errorf("%d purge within 7d, want 3: %q", within, r.stdout)
	}
	r = runAgainst(t, h, "recycle-bin", "--by-deleter", "--purging-within", "1d", "--csv")
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); r.code != 0 || len(lines) != 3 || lines[0] != "deleted by,projects,within 1d,next purge,next purge at (UTC)" {
		t.Errorf("--by-deleter --purging-within 1d --csv: %d %q", r.code, r.stdout)
	}
	for _, bad := range [][]string{{"--deleted-by", "late@firm.example"}, {"--check"}} {
		if r := runAgainst(t, h, append([]string{"recycle-bin", "--by-deleter"}, bad...)...); r.code != ExitUsage || !strings.Contains(r.stderr, "--by-deleter") {
			t.Errorf("--by-deleter %v: %d %q", bad, r.code, r.stderr)
		}
	}
}
