package store

import (
	"path/filepath"
	"strings"
	"testing"
)

// The neighbours of the record's DELETE and UPDATE: SQLite's REPLACE
// removes the row it conflicts with without firing a DELETE trigger (unless
// recursive triggers are on), so an INSERT OR REPLACE, a REPLACE or an
// UPDATE OR REPLACE onto a kept row's id would rewrite it past both
// triggers. Each must be refused, and the row read back unchanged.
func TestHubActionsCannotBeReplaced(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, who := range []string{"key SHA256:abc alice@laptop", "key SHA256:def bob@desk"} {
		id, err := s.RecordHubAction(HubAction{Actor: who, Method: "DELETE", Path: "/api/v1/vault/delete_project/p1", What: "project deleted"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SettleHubAction(id, 200, HubDone, ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`INSERT OR REPLACE INTO hub_actions (id, at, actor, method, path, what, outcome) VALUES (1, 0, 'someone else', 'GET', '/', 'nothing', 'refused')`,
		`REPLACE INTO hub_actions (id, at, actor, method, path, what) VALUES (1, 0, 'someone else', 'GET', '/', 'nothing')`,
		`UPDATE OR REPLACE hub_actions SET id = 1 WHERE id = 2`,
	} {
		if _, err := s.db.Exec(q); err == nil || !strings.Contains(err.Error(), "cannot be") {
			t.Errorf("%s: %v, want refused by the schema", q, err)
		}
	}
	got, err := s.HubActions(s.now().AddDate(0, 0, -1))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Actor != "key SHA256:abc alice@laptop" || got[0].Outcome != HubDone || got[1].Actor != "key SHA256:def bob@desk" {
		t.Fatalf("the record after the replacements: %+v", got)
	}
}
