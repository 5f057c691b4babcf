package access_test

import (
	"context"
	"testing"
	"time"
)

// BenchmarkCrawlLarge320 crawls the large simulator (320 projects) under
// the real vault limit of 10 requests a minute, on the simulator's clock,
// then crawls again a simulated day later (5 sharing changes at midnight).
// It reports the requests each crawl made and the time it would take
// against the service (the simulated minutes the budget imposed).
func BenchmarkCrawlLarge320(b *testing.B) {
	for b.Loop() {
		h := newHarness(b, 0)
		f := &fakeSnapshots{}
		ctx := context.Background()
		t0 := h.clock.Now()
		first, err := h.crawler(f).Run(ctx)
		if err != nil {
			b.Fatal(err)
		}
		firstTook := h.clock.Now().Sub(t0)
		h.sim.Advance(24 * time.Hour)
		t1 := h.clock.Now()
		daily, err := h.crawler(f).Run(ctx)
		if err != nil {
			b.Fatal(err)
		}
		dailyTook := h.clock.Now().Sub(t1)
		b.ReportMetric(float64(first.Requests), "first-requests")
		b.ReportMetric(firstTook.Minutes(), "first-sim-min")
		b.ReportMetric(float64(daily.Requests), "daily-requests")
		b.ReportMetric(dailyTook.Seconds(), "daily-sim-s")
	}
}
