package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

const acme = "Acme Corp v. Halvorsen — Patent Litigation"

// deleteAcme deletes the first project through the session's console.
func deleteAcme(tm *term) {
	tm.waitFor("Acme Corp v. Halvorsen")
	tm.send("\r")
	tm.waitFor("Users")
	tm.send("D")
	tm.waitFor("Delete project")
	tm.send(acme + "\r")
	tm.waitFor("will appear in the recycle bin")
}

// A project deleted through the hub is in the record with the key that
// did it, the project, the outcome and the service's own audit entry for
// it; serve's log names the same.
func TestDeletionRecordedWithItsKey(t *testing.T) {
	f := startServer(t, func(c *Config) { c.AllowWrites = true })
	tm := f.open(f.bound, nil)
	deleteAcme(tm)
	var got []store.HubAction
	waitUntil(t, "the record's evidence", func() bool {
		got, _ = f.srv.st.HubActions(time.Time{})
		return len(got) == 1 && got[0].AuditNote != ""
	}, func() string { return f.log.String() })
	a := got[0]
	fp := f.srv.Keys().List[0].Fingerprint
	if !strings.Contains(a.Actor, fp) || !strings.Contains(a.Actor, "alice@laptop") || a.KeyComment != "alice@laptop" {
		t.Errorf("actor %q does not name key %s alice@laptop", a.Actor, fp)
	}
	id := strings.TrimPrefix(a.Path, "/api/v1/vault/delete_project/")
	if a.Target != id+" "+acme {
		t.Errorf("the record names the project %q, want its id and name %q", a.Target, id+" "+acme)
	}
	if a.What != "project deleted" || id == "" || !strings.HasPrefix(a.Target, id) || a.Outcome != store.HubDone || a.Status/100 != 2 {
		t.Errorf("record %+v", a)
	}
	if a.AuditEntries == "" || strings.Contains(a.AuditEntries, " ") {
		t.Fatalf("want the service's one entry, got %q (%s)", a.AuditEntries, a.AuditNote)
	}
	if a.OSUser == "" {
		t.Error("the local account is not named")
	}
	log := f.log.String()
	for _, want := range []string{"msg=\"hub action\"", "what=\"project deleted\"", fp, "target=\"" + id + " " + acme + "\"", "msg=\"hub action evidence\"", "audit_entries=" + a.AuditEntries} {
		if !strings.Contains(log, want) {
			t.Errorf("the log has no %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, f.sim.Token("admin")) {
		t.Error("the token reached the log")
	}
}
