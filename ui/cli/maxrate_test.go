package cli

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// simTime is a clock that the simulator follows: sleeping advances both, so
// a minute of waiting for the budget takes no time.
type simTime struct {
	mu  sync.Mutex
	s   *sim.Server
	now time.Time
}

func (c *simTime) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *simTime) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	c.s.Advance(d)
	return nil
}

// TestMaxRateKeepsVaultdeckBelowTheLimit: with the profile's max-rate at
// 30% (3 vault requests a minute), the fourth of four commands in a row
// waits for the window, though the service would have taken it; the
// commands are separate processes (Std each time) sharing the store's
// ledger. A bad value is refused with one line.
func TestMaxRateKeepsVaultdeckBelowTheLimit(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, Now: fixedNow}})
	s := e.Sim
	vars := map[string]string{"VAULTDECK_HOME": t.TempDir(), "VAULTDECK_TOKEN": s.Token("admin")}
	st, getenv := homeStore(t, vars, store.Profile{Name: "capped", BaseURL: e.URL})
	st.Close()
	clock := &simTime{s: s, now: fixedNow()}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Std(strings.NewReader(""), &out, &errb, getenv)
		env.Clock = clock
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	for _, bad := range [][]string{{"config", "set", "max-rate", "0"}, {"config", "set", "max-rate", "150%"}, {"projects", "--max-rate", "fast"}} {
		r := vd(append([]string{"--profile", "capped"}, bad...)...)
		if r.code != ExitUsage || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || !strings.Contains(r.stderr, "max-rate") {
			t.Errorf("%v: exit %d, stderr %q", bad, r.code, r.stderr)
		}
	}
	if r := vd("--profile", "capped", "config", "set", "max-rate", "30%"); r.code != ExitOK {
		t.Fatalf("config set max-rate: %d %q", r.code, r.stderr)
	}
	if r := vd("--profile", "capped", "config", "get", "max-rate"); !strings.Contains(r.stdout, "30%") {
		t.Errorf("config get max-rate: %q", r.stdout)
	}
	for i := range 3 {
		if r := vd("--profile", "capped", "projects"); r.code != ExitOK {
			t.Fatalf("projects #%d: %d %q", i+1, r.code, r.stderr)
		}
	}
	if waited := clock.Now().Sub(fixedNow()); waited != 0 {
		t.Fatalf("three requests under a cap of three waited %v", waited)
	}
	if r := vd("--profile", "capped", "projects"); r.code != ExitOK {
		t.Fatalf("projects #4: %d %q", r.code, r.stderr)
	}
	if waited := clock.Now().Sub(fixedNow()); waited < time.Minute {
		t.Errorf("the fourth request went after %v: the cap of 3 a minute was not kept", waited)
	}
	// The flag wins over the profile: at 100% the next three go at once.
	before := clock.Now()
	for range 3 {
		if r := vd("--profile", "capped", "--max-rate", "100%", "projects"); r.code != ExitOK {
			t.Fatalf("projects --max-rate 100%%: %d %q", r.code, r.stderr)
		}
	}
	if clock.Now() != before {
		t.Errorf("--max-rate 100%% still waited %v", clock.Now().Sub(before))
	}
	if n := s.RateLimited()["vault"]; n != 0 {
		t.Errorf("the simulator answered %d requests 429", n)
	}
}

// TestMaxRateLiftsTheLimitForALocalSimulator: `access crawl --rate N` was a
// second knob beside the global --max-rate; it is gone, and --max-rate
// above the service's limits is the one way to lift the client's limits,
// for a simulator on this machine only (started with --no-rate-limit, as
// the e2e tests do). 324 requests then go without a minute of waiting.
func TestMaxRateLiftsTheLimitForALocalSimulator(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Scale: sim.ScaleLarge, NoRateLimit: true, SharingChanges: -1, Now: fixedNow}})
	s := e.Sim
	vars := map[string]string{"VAULTDECK_HOME": t.TempDir(), "VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	getenv := func(k string) string { return vars[k] }
	clock := &simTime{s: s, now: fixedNow()}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Std(strings.NewReader(""), &out, &errb, getenv)
		env.Clock = clock
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	if r := vd("access", "crawl", "--rate", "5"); r.code != ExitUsage || !strings.Contains(r.stderr, "--rate") {
		t.Errorf("access crawl --rate 5: exit %d %q, want exit 2 naming the unknown flag", r.code, r.stderr)
	}
	r := vd("--max-rate", "100000", "access", "crawl")
	if r.code != ExitOK || !strings.Contains(r.stdout, "snapshot 1: 320 projects (320 read") {
		t.Fatalf("--max-rate 100000 access crawl: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if waited := clock.Now().Sub(fixedNow()); waited != 0 {
		t.Errorf("a crawl of 320 projects under --max-rate 100000 against a local simulator waited %v", waited)
	}
}
