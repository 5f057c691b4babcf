package auditview

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// Issue 29.2's neighbour: the audit log filtered by one user (u) repeated
// that user on every row, under a header already saying "user X". A column
// the filter fixes is said once and dropped from the rows; clearing the
// filter brings it back.
func TestUserFilterDropsTheUserColumn(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 300}, false, "")
	r.run(r.m.Init())
	row, ok := r.m.Table.Selected()
	if !ok {
		t.Fatal("no entries")
	}
	user := r.m.entries[r.m.byID[row.ID]].User
	head := func() string {
		for _, l := range strings.Split(r.m.View(), "\n") {
			if strings.Contains(l, "Time (UTC)") || strings.Contains(l, "Type") {
				return l
			}
		}
		return ""
	}
	if !strings.Contains(head(), "User") {
		t.Fatalf("no User column before the filter:\n%s", r.m.View())
	}
	r.key("w") // offers the user of the row under the cursor
	r.key("enter")
	if r.m.filter.User != user {
		t.Fatalf("filter %q, want %q", r.m.filter.User, user)
	}
	if v := r.m.View(); strings.Contains(head(), "User") || !strings.Contains(v, "user "+user) {
		t.Errorf("filtered by %s, the User column is still drawn (or the header does not say whose):\n%s", user, v)
	}
	r.key("w")
	for range len(user) + 2 {
		r.key("backspace")
	}
	r.key("enter")
	if r.m.filter.User != "" || !strings.Contains(head(), "User") {
		t.Errorf("the filter cleared (%q), the User column did not come back:\n%s", r.m.filter.User, r.m.View())
	}
}
