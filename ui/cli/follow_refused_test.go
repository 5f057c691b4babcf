package cli

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// movingClock is a clock whose Sleep moves time on at once.
type movingClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *movingClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *movingClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.now = c.now.Add(max(d, 0))
	c.mu.Unlock()
	return ctx.Err()
}

// TestFollowExitsFourWhenTheTokenStaysRefused: `audit follow` whose token
// is revoked exits 4 (authentication, as gh uses it) once --auth-grace has
// passed with nothing accepted, with one line on stderr saying so; a bound
// that is not a positive duration is a usage error.
func TestFollowExitsFourWhenTheTokenStaysRefused(t *testing.T) {
	clock := &movingClock{now: fixedNow()}
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: clock.Now, AuditEntries: 50}})
	e.Sim.Revoke("admin")
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}, Clock: clock}
		return Main(context.Background(), args, env), out.String(), errb.String()
	}
	start := clock.Now()
	code, out, errText := vd("audit", "follow", "--no-mirror", "--auth-grace", "2m")
	lines := strings.Split(strings.TrimSpace(errText), "\n")
	last := lines[len(lines)-1]
	if code != 4 || out != "" || !strings.Contains(last, "refused for 2m0s") || !strings.Contains(last, "(401)") {
		t.Fatalf("a revoked token: exit %d, stdout %q, stderr:\n%s\nwant exit 4 and the last line saying so", code, out, errText)
	}
	if took := clock.Now().Sub(start); took < 2*time.Minute || took > 2*time.Minute+5*time.Second {
		t.Errorf("gave up after %s, want at the bound", took)
	}
	if code, _, errText := vd("audit", "follow", "--auth-grace", "0s"); code != 2 || !strings.Contains(errText, "--auth-grace") {
		t.Errorf("--auth-grace 0s: exit %d, %q", code, errText)
	}
}
