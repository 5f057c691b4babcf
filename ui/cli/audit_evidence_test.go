package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestReceiptShowsAuditEvidence: a matter receipt names the service's own
// api:client_matter_management entries of the run once the mirror covers
// its time, and says to run audit sync before that.
func TestReceiptShowsAuditEvidence(t *testing.T) {
	e := newMattersEnv(t)
	// The receipt is stamped by this machine's clock, the service's
	// entries by the simulator's: bring the simulator to now.
	e.s.Advance(time.Until(e.s.Now()) * -1)
	ms := e.live(2)
	p := e.file(t, "export.csv", spreadsheet(ms))
	if r := e.vd("", "matters", "delete", p, "--yes"); r.code != ExitPartial {
		t.Fatalf("delete: %d %q", r.code, r.stderr)
	}
	r := e.vd("", "matters", "receipt", "1")
	if r.code != 0 || !strings.Contains(r.stdout, "audit     not yet in the mirror: run `vaultdeck audit sync`") {
		t.Fatalf("before a sync: %d\n%s", r.code, r.stdout)
	}
	e.s.Advance(10 * time.Minute) // later entries, so the mirror reaches past the run
	if r := e.vd("", "audit", "sync"); r.code != 0 {
		t.Fatalf("sync: %d %q", r.code, r.stderr)
	}
	r = e.vd("", "matters", "receipt", "1")
	if r.code != 0 || !strings.Contains(r.stdout, "audit entry of the service record it") && !strings.Contains(r.stdout, "audit entries of the service record it") ||
		!strings.Contains(r.stdout, "api:client_matter_management") {
		t.Fatalf("after a sync: %d\n%s", r.code, r.stdout)
	}
	r = e.vd("", "--json", "matters", "receipt", "1")
	var m struct {
		Evidence struct {
			IDs     []string `json:"entry_ids"`
			Covered *bool    `json:"covered"`
		} `json:"audit_evidence"`
	}
	if json.Unmarshal([]byte(r.stdout), &m) != nil || len(m.Evidence.IDs) == 0 || m.Evidence.Covered == nil || !*m.Evidence.Covered {
		t.Fatalf("json: %s", r.stdout)
	}
}
