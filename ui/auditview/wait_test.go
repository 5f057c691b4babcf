package auditview

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// gateClock is the client's clock: the simulator's time, and a Sleep
// (the budget's wait) that tells the test and waits for it to let go,
// then advances the simulator by the wait. No wall-clock time passes.
type gateClock struct {
	sim   *sim.Server
	slept chan time.Duration
	go_   chan struct{}
}

func (c *gateClock) Now() time.Time { return c.sim.Now() }

func (c *gateClock) Sleep(ctx context.Context, d time.Duration) error {
	select {
	case c.slept <- d:
		select {
		case <-c.go_:
		case <-ctx.Done():
			return ctx.Err()
		}
	case <-c.go_: // let go: later waits pass at once
	case <-ctx.Done():
		return ctx.Err()
	}
	c.sim.Advance(d)
	return nil
}

// TestLoadSaysWhatItWaitsFor: a jump on a rate-limited workspace says,
// while it waits, what it is reading (the search's position in the log)
// and what it waits for and how long (the audit budget and when it
// refills). Before, the header said "0 shown · loading" for a minute.
func TestLoadSaysWhatItWaitsFor(t *testing.T) {
	opts := sim.Options{Seed: 5, AuditEntries: 3000, NoRateLimit: true,
		Now: func() time.Time { return simNow }}
	s := sim.New(opts)
	clock := &gateClock{sim: s, slept: make(chan time.Duration), go_: make(chan struct{})}
	e := simtest.Start(t, simtest.Options{Server: s, Client: api.Config{Clock: clock, Limits: api.Limits{Vault: -1, Audit: 3, Matters: -1}}, DefaultLimits: true})
	env := page.Env{Backend: e.Client, Theme: testTheme(t), Keys: keys.New(false), IDs: &page.IDs{}, Now: s.Now}
	m := New(env, "2026-11-20 14:05").(*Model)
	m.SetSize(120, 40)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pagetest.Drive(m, m.Init())
	}()
	// The budget of 3 is spent by the jump's first reads; the next waits.
	var d time.Duration
	select {
	case d = <-clock.slept:
	case <-done:
		t.Fatal("the jump never waited for the budget")
	}
	// the read is blocked in Sleep: nothing else touches m
	head := strings.Join(strings.Fields(ansi.Strip(m.headerLine())), " ")
	for _, want := range []string{"jump to 2026-11-20 14:05", "waiting", "audit budget", "3 a minute", "requests", "from 2026-11-"} {
		if !strings.Contains(head, want) {
			t.Errorf("while waiting %s, the header does not say %q:\n%s", d, want, head)
		}
	}
	close(clock.go_) // every later wait passes at once
	<-done
	if head := ansi.Strip(m.headerLine()); strings.Contains(head, "waiting") {
		t.Errorf("landed, the header still says it waits:\n%s", head)
	}
}
