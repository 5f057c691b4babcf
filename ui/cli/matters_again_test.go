package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// Restoring the same receipt twice says so and sends nothing again; the
// receipts name the token actually used (VAULTDECK_TOKEN here), not a
// "default" profile that was never involved.
func TestRestoreTwiceSaysSoAndSendsNothing(t *testing.T) {
	e := newMattersEnv(t)
	ms := e.live(2)
	p := e.file(t, "m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	if r := e.vd("", "matters", "delete", p, "--yes"); r.code != 0 {
		t.Fatalf("delete: %+v", r)
	}
	if r := e.vd("", "matters", "restore", "--receipt", "1", "--yes"); r.code != 0 || !strings.Contains(r.stderr, "restored 2") {
		t.Fatalf("restore: %+v", r)
	}
	sent := e.requests.Load()
	r := e.vd("", "matters", "restore", "--receipt", "1", "--yes")
	if r.code != 0 || !strings.Contains(r.stderr, "already restored by receipt 2") {
		t.Errorf("second restore: exit %d, stderr %q", r.code, r.stderr)
	}
	if n := e.requests.Load() - sent; n != 0 {
		t.Errorf("the second restore sent %d request(s)", n)
	}
	r = e.vd("", "--json", "matters", "receipts")
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Errorf("%d receipts after two restores of one deletion, want 2 (the second did nothing)", len(list))
	}
	for _, rc := range list {
		// who acted, as whoami says, and how the token was found
		if rc["profile"] != "m.castellano@harrowgate-law.com (VAULTDECK_TOKEN)" {
			t.Errorf("receipt %v names %q, want the e-mail whoami gives, m.castellano@harrowgate-law.com (VAULTDECK_TOKEN)", rc["id"], rc["profile"])
		}
	}
}
