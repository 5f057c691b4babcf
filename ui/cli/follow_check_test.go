package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

type clockAt struct{ t time.Time }

func (c clockAt) Now() time.Time                                   { return c.t }
func (c clockAt) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// TestFollowCheckReadsTheLagTheFollowRecorded: `audit follow --check
// --max-lag D` with the follow's own --out (or --checkpoint) answers as
// recycle-bin --check does (one Nagios-style line, exit 0 OK, 3 when the
// lag passes the bound, 1 UNKNOWN) from what the follow recorded in the
// store, without a token; a follow never run there is UNKNOWN.
func TestFollowCheckReadsTheLagTheFollowRecorded(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow, AuditEntries: 200}})
	dir := t.TempDir()
	out := filepath.Join(dir, "feed.jsonl")
	vd := func(clock api.Clock, withToken bool, args ...string) run {
		vars := map[string]string{"VAULTDECK_BASE_URL": e.URL}
		if withToken {
			vars["VAULTDECK_TOKEN"] = e.Sim.Token("admin")
		}
		var o, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1},
			OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(dir, "vaultdeck.db")) }, Clock: clock}
		return run{Main(context.Background(), args, env), o.String(), errb.String()}
	}
	if r := vd(clockAt{fixedNow()}, false, "audit", "follow", "--out", out, "--check"); r.code != 1 || !strings.HasPrefix(r.stdout, "FOLLOW UNKNOWN - ") {
		t.Fatalf("no follow ran: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd(clockAt{fixedNow()}, true, "audit", "follow", "--once", "--no-mirror", "--out", out); r.code != 0 {
		t.Fatalf("follow --once: exit %d %q", r.code, r.stderr)
	}
	r := vd(clockAt{fixedNow().Add(90 * time.Second)}, false, "audit", "follow", "--out", out, "--check", "--max-lag", "15m")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "FOLLOW OK - ") || !strings.Contains(r.stdout, "| lag=90s;900;;") {
		t.Errorf("90 s after a caught-up read: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd(clockAt{fixedNow().Add(20 * time.Minute)}, false, "audit", "follow", "--out", out, "--check", "--max-lag", "15m")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "FOLLOW WARNING - ") || !strings.Contains(r.stdout, "| lag=1200s;900;;") {
		t.Errorf("20 min after: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd(clockAt{fixedNow()}, false, "audit", "follow", "--check"); r.code != 2 || !strings.Contains(r.stderr, "--out") {
		t.Errorf("--check without the follow's --out or --checkpoint: exit %d %q", r.code, r.stderr)
	}
	if r := vd(clockAt{fixedNow()}, true, "audit", "follow", "--metrics", "0.0.0.0:9464", "--once"); r.code != 2 || !strings.Contains(r.stderr, "loopback") {
		t.Errorf("--metrics on every address: exit %d %q", r.code, r.stderr)
	}
	if r := vd(clockAt{fixedNow()}, false, "audit", "follow", "--check", "--out", out, "--json"); r.code != 2 {
		t.Errorf("--check --json: exit %d %q", r.code, r.stderr)
	}
}
