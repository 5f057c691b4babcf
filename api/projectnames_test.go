package api

import (
	"encoding/json"
	"testing"
)

// The cached listing's names win over the access snapshots' (usually
// fresher), IDs match in any case, an unreadable body costs only its names,
// and the names stay the server's strings: the printers clean them.
func TestKnownProjectNames(t *testing.T) {
	body, _ := json.Marshal(ProjectListing{Projects: []Project{{ID: "P1", Name: "Fresh \x1b[31mname"}, {ID: "p3"}}, Page: 1})
	got := KnownProjectNames(map[string]string{"p1": "Old name", "P2": "Second"}, body)
	if len(got) != 2 || got["p1"] != "Fresh \x1b[31mname" || got["p2"] != "Second" {
		t.Errorf("names %q", got)
	}
	if got := KnownProjectNames(map[string]string{"p2": "Second"}, []byte("{not json")); len(got) != 1 || got["p2"] != "Second" {
		t.Errorf("unreadable body: %q", got)
	}
}
