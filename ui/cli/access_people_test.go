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
	u := vd("access", "user", people[0].Email, "--jq", ".project_id")
	if u.code != 0 || strings.Count(u.stdout, "\n") != people[0].Projects {
		t.Errorf("%s: people says %d projects, access user lists %d", people[0].Email, people[0].Projects, strings.Count(u.stdout, "\n"))
	}
	r = vd("access", "people")
	if r.code != 0 || !strings.Contains(r.stdout, "PROJECTS") || !strings.Contains(r.stdout, people[0].Email) {
		t.Errorf("table: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if requests.Load() != before {
		t.Errorf("access people sent %d requests; the snapshot answers", requests.Load()-before)
	}
}
