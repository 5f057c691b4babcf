package filestatus

import (
	"testing"
	"time"
)

func TestPlanPoll(t *testing.T) {
	base := 10 * time.Second
	full := Budget{Limit: 10, Remaining: 10, ResetIn: 40 * time.Second}
	cases := []struct {
		name       string
		pending    int
		b          Budget
		failures   int
		retryAfter time.Duration
		wantCalls  int
		wantWait   time.Duration
	}{
		{"nothing pending", 0, full, 0, 0, 0, 0},
		{"one call: half budget is 12s", 5, full, 0, 0, 1, 12 * time.Second},
		{"1500 ids need two calls", 1500, full, 0, 0, 2, 24 * time.Second},
		{"100k ids capped at half budget", 100000, full, 0, 0, 5, time.Minute},
		{"remaining limits calls", 5000, Budget{Limit: 10, Remaining: 4, ResetIn: 30 * time.Second}, 0, 0, 2, 24 * time.Second},
		{"budget low waits for reset", 10, Budget{Limit: 10, Remaining: 2, ResetIn: 33 * time.Second}, 0, 0, 0, 33 * time.Second},
		{"budget empty waits for reset", 10, Budget{Limit: 10, Remaining: 0, ResetIn: 5 * time.Second}, 0, 0, 0, 5 * time.Second},
		{"reset in zero still waits a second", 10, Budget{Limit: 10, Remaining: 0}, 0, 0, 0, time.Second},
		{"generous limit keeps base", 10, Budget{Limit: 600, Remaining: 600}, 0, 0, 1, base},
		{"backoff doubles", 10, full, 2, 0, 1, 40 * time.Second},
		{"backoff capped", 10, full, 9, 0, 1, maxBackoff},
		{"retry-after wins", 10, full, 1, 90 * time.Second, 1, 90 * time.Second},
		{"unknown limit uses default", 10, Budget{Remaining: 10}, 0, 0, 1, 12 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planPoll(c.pending, c.b, base, c.failures, c.retryAfter)
			if p.Calls != c.wantCalls || p.Wait != c.wantWait {
				t.Errorf("planPoll = %d calls / %v (%s), want %d / %v", p.Calls, p.Wait, p.Reason, c.wantCalls, c.wantWait)
			}
		})
	}
}

func TestPlanNeverExceedsHalfBudgetPerMinute(t *testing.T) {
	for pending := 1; pending <= 20000; pending += 333 {
		p := planPoll(pending, Budget{Limit: 10, Remaining: 10}, time.Second, 0, 0)
		perMinute := float64(p.Calls) * float64(time.Minute) / float64(p.Wait)
		if perMinute > 5.0001 {
			t.Fatalf("pending %d: %d calls every %v = %.2f/min", pending, p.Calls, p.Wait, perMinute)
		}
	}
}

func TestManualCalls(t *testing.T) {
	cases := []struct {
		ids  int
		b    Budget
		want int
	}{
		{5, Budget{Limit: 10, Remaining: 1}, 1}, // may use the reserve
		{5, Budget{Limit: 10, Remaining: 0}, 0},
		{2500, Budget{Limit: 10, Remaining: 10}, 3},
		{50000, Budget{Limit: 10, Remaining: 10}, 5},
	}
	for _, c := range cases {
		if got := manualCalls(c.ids, c.b); got != c.want {
			t.Errorf("manualCalls(%d, %+v) = %d, want %d", c.ids, c.b, got, c.want)
		}
	}
}

// TestAloneCadenceDoublesWhileQuiet: the CLI's watch asks about every
// pending file each poll and pauses base, doubled per quiet poll up to two
// minutes, whatever the budget (the client's limiter paces its requests).
func TestAloneCadenceDoublesWhileQuiet(t *testing.T) {
	c := Cadence{Alone: true}
	low := Budget{Limit: 10, Remaining: 0, ResetIn: time.Minute}
	want := []time.Duration{10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 2 * time.Minute, 2 * time.Minute}
	for quiet, w := range want {
		if p := c.Next(2500, low, 0, 0, quiet); p.Calls != 3 || p.Wait != w {
			t.Errorf("quiet %d: %d calls / %v, want 3 / %v", quiet, p.Calls, p.Wait, w)
		}
	}
	if p := c.Next(0, low, 0, 0, 0); p.Calls != 0 {
		t.Errorf("nothing pending: %d calls", p.Calls)
	}
	// The console shares the budget: the same set waits for the reset.
	if p := (Cadence{}).Next(2500, low, 0, 0, 0); p.Calls != 0 || p.Wait != time.Minute {
		t.Errorf("shared: %d calls / %v, want 0 / 1m", p.Calls, p.Wait)
	}
}
