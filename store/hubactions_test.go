package store

import (
	"path/filepath"
	"strings"
	"testing"
)

// The hub's record is written before the request, settled once, given its
// evidence once; nothing else of it changes and no row is ever deleted,
// even by SQL run on the same database.
func TestHubActionsCannotBeEdited(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id, err := s.RecordHubAction(HubAction{Actor: "key SHA256:abc alice@laptop", KeySHA256: "SHA256:abc", Method: "DELETE",
		Path: "/api/v1/vault/delete_project/p1", What: "project deleted", Target: "p1 Acme"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SettleHubAction(id, 200, HubDone, "accepted"); err != nil {
		t.Fatal(err)
	}
	if err := s.SettleHubAction(id, 500, HubFailed, "again"); err == nil {
		t.Error("an outcome was written twice")
	}
	if err := s.HubActionEvidence(id, []string{"e1"}, "1 entry"); err != nil {
		t.Fatal(err)
	}
	if err := s.HubActionEvidence(id, nil, "none"); err == nil {
		t.Error("evidence was written twice")
	}
	for _, q := range []string{
		`DELETE FROM hub_actions`,
		`UPDATE hub_actions SET actor = 'someone else'`,
		`UPDATE hub_actions SET outcome = 'refused'`,
		`UPDATE hub_actions SET audit_entries = ''`,
		`UPDATE hub_actions SET target = 'p2'`,
	} {
		if _, err := s.db.Exec(q); err == nil || !strings.Contains(err.Error(), "cannot be") {
			t.Errorf("%s: %v, want refused by the schema", q, err)
		}
	}
	got, err := s.HubActions(s.now().AddDate(0, 0, -1))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Actor != "key SHA256:abc alice@laptop" || got[0].Outcome != HubDone || got[0].AuditEntries != "e1" {
		t.Fatalf("record %+v", got)
	}
}
