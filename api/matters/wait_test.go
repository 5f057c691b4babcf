package matters_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// blockingClock's Sleep lasts until its context ends, like a real minute
// of waiting for the budget; the guard only keeps a broken build from
// hanging the test run (no assertion depends on it).
type blockingClock struct{ now atomic.Int64 }

func (c *blockingClock) Now() time.Time { return time.Unix(0, c.now.Load()) }
func (c *blockingClock) Sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(5 * time.Second):
		c.now.Add(int64(d))
		return nil
	}
}

// Cancelling while the client waits for the budget (nothing on the wire)
// ends the wait at once: that request is reported not sent, the earlier
// one sent. Before, the wait ran its full minute and the request went.
func TestCancelDuringBudgetWait(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1, NoRateLimit: true}, api.Limits{})
	clock := &blockingClock{}
	clock.now.Store(epoch.UnixNano())
	c, err := api.New(api.Config{BaseURL: e.c.Base(), Token: api.StaticToken(e.s.Token("admin")), Clock: clock, Limits: api.Limits{Matters: 1}})
	if err != nil {
		t.Fatal(err)
	}
	plan := smallBatches(matters.NewPlan(read(t, "C-1,M\nC-2,M\n"), 1), 1)
	ctx, cancel := context.WithCancel(context.Background())
	var waits []string
	rep := matters.SendDeletions(ctx, c, plan, matters.Hooks{Wait: func(w api.Wait) {
		waits = append(waits, w.String())
		cancel() // Ctrl-C while the wait line is on screen
	}})
	if !rep.Canceled || rep.SentLines != "1" || rep.Sent != 1 {
		t.Fatalf("canceled %v sent %d lines %q", rep.Canceled, rep.Sent, rep.SentLines)
	}
	if o := rep.Outcomes[1]; o.Result != matters.ResultNotSent || !strings.Contains(o.Detail, "waiting") {
		t.Fatalf("line 2: %+v", o)
	}
	if len(waits) != 1 || !strings.Contains(waits[0], "budget") {
		t.Fatalf("waits %v", waits)
	}
	if e.requests.Load() != 1 {
		t.Fatalf("%d requests reached the service", e.requests.Load())
	}
}
