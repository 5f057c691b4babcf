package audit

import (
	"context"
	"testing"
	"time"
)

// steppedClock is a clock the test moves by hand; Sleep records the wait
// asked for and moves time by it.
type steppedClock struct {
	now   time.Time
	slept []time.Duration
}

func (c *steppedClock) Now() time.Time { return c.now }
func (c *steppedClock) Sleep(_ context.Context, d time.Duration) error {
	c.slept = append(c.slept, d)
	c.now = c.now.Add(d)
	return nil
}

// A clock set back between two paced requests (an NTP step, a restored VM
// snapshot) left the last request's time hours in the future, and the
// pacer slept the hours it jumped; it waits at most one gap.
func TestPacerWaitsAtMostOneGapAfterTheClockWentBack(t *testing.T) {
	c := &steppedClock{now: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)}
	p := newPacer(c, time.Second)
	if err := p.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.now = c.now.Add(-3 * time.Hour)
	if err := p.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(c.slept) != 1 || c.slept[0] > time.Second {
		t.Fatalf("slept %v after the clock went back 3h, want at most one 1s gap", c.slept)
	}
}
