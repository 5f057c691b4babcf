package cli

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
)

// checkAccessPeople (part of TestAccessCommands, after its crawl: one
// crawl for both): the console's access view opens on its people tab (each
// person with their project counts, most projects first); `access people`
// lists the same headless, from the same snapshot, with no request.
func checkAccessPeople(t *testing.T, requests *atomic.Int64, vd func(args ...string) run) {
	t.Helper()
	before := requests.Load()
	r := vd("access", "people", "--json")
	var people []struct {
		Email    string `json:"email"`
		Projects int    `json:"projects"`
		Manage   int    `json:"manage"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &people) != nil || len(people) < 2 {
		t.Fatalf("access people --json: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for i := 1; i < len(people); i++ {
		if people[i].Projects > people[i-1].Projects {
			t.Fatalf("not most projects first at %d: %+v", i, people[i-1:i+1])
		}
	}
	// The count agrees with the person's own listing.
	u := vd("access", "user", people[0].Email, "--jq", ".[] | .project_id")
	if u.code != 0 || strings.Count(u.stdout, "\n") != people[0].Projects {
		t.Errorf("%s: people says %d projects, access user lists %d", people[0].Email, people[0].Projects, strings.Count(u.stdout, "\n"))
	}
	// --jsonl: the same items, one a line (it printed the table). The same
	// for every listing printed through emitJSON: access user, diff, snapshots.
	for _, args := range [][]string{{"access", "people"}, {"access", "user", people[0].Email}, {"access", "snapshots"}} {
		l := vd(append(args, "--jsonl")...)
		lines := strings.Split(strings.TrimSuffix(l.stdout, "\n"), "\n")
		if l.code != 0 || len(lines) == 0 {
			t.Fatalf("%v --jsonl: %d %q %q", args, l.code, l.stdout, l.stderr)
		}
		for _, line := range lines {
			var item map[string]any
			if err := json.Unmarshal([]byte(line), &item); err != nil {
				t.Fatalf("%v --jsonl: a line that is not one JSON object: %q (%v)", args, line, err)
			}
		}
	}
	if n := len(strings.Split(strings.TrimSpace(vd("access", "people", "--jsonl").stdout), "\n")); n != len(people) {
		t.Errorf("access people --jsonl: %d lines for %d people", n, len(people))
	}
	r = vd("access", "people")
	if r.code != 0 || !strings.Contains(r.stdout, "PROJECTS") || !strings.Contains(r.stdout, people[0].Email) {
		t.Errorf("table: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if requests.Load() != before {
		t.Errorf("access people sent %d requests; the snapshot answers", requests.Load()-before)
	}
}
