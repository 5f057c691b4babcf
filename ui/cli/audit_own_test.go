package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestAuditHideOwnReads: the console's audit view hides the token user's
// own reads of the log (h shows them); `audit --hide-own-reads` is that
// filter headless, so the view's equivalent command lists its rows. A
// --limit counts the entries shown, not the hidden ones.
func TestAuditHideOwnReads(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow, AuditEntries: 300}})
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }, Limits: simtest.Unlimited(), Clock: fixedClock{}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	who := vd("whoami", "--jq", ".email")
	self := strings.TrimSpace(who.stdout)
	if who.code != 0 || self == "" {
		t.Fatalf("whoami: %d %q", who.code, who.stderr)
	}
	own := `.[] | select(.type == "api:audit_log_fetch" and (.user | ascii_downcase) == "` + strings.ToLower(self) + `") | .id`
	vd("audit", "--limit", "3") // reads leave their own entries
	vd("audit", "--limit", "3")
	if r := vd("audit", "--limit", "0", "--jq", own); r.code != 0 || r.stdout == "" {
		t.Fatalf("the log holds no own read to hide: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r := vd("audit", "--limit", "0", "--hide-own-reads", "--jq", own)
	if r.code != 0 || r.stdout != "" {
		t.Errorf("own reads listed with --hide-own-reads: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("audit", "--limit", "4", "--hide-own-reads", "--jq", ".[] | .id")
	if r.code != 0 || strings.Count(r.stdout, "\n") != 4 {
		t.Errorf("--limit 4 --hide-own-reads: %d %q %q", r.code, r.stdout, r.stderr)
	}
}
