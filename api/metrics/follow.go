package metrics

import (
	"sync"
	"time"

	vm "github.com/VictoriaMetrics/metrics"

	"github.com/vaultdeck/vaultdeck/store"
)

// Follow is the metric set of `audit follow`: told of each read's
// progress and of the client's budget waits, it answers a scrape with the
// lag (as `--check` computes it, at the scrape's time), the entries
// written, the last success, the consecutive failures, whether the token
// is refused, and the budget waits.
type Follow struct {
	Set *vm.Set

	lag     func(store.FollowProgress, time.Time) time.Duration
	now     func() time.Time
	entries *vm.Counter
	waits   *vm.Counter

	mu   sync.Mutex
	last store.FollowProgress
}

// NewFollow makes the set; lag is audit.Lag, now the follow's clock.
func NewFollow(lag func(store.FollowProgress, time.Time) time.Duration, now func() time.Time) *Follow {
	f := &Follow{Set: vm.NewSet(), lag: lag, now: now}
	f.entries = f.Set.NewCounter("vaultdeck_follow_entries_written_total")
	f.waits = f.Set.NewCounter("vaultdeck_budget_waits_total")
	read := func(fn func(p store.FollowProgress) float64) func() float64 {
		return func() float64 {
			f.mu.Lock()
			defer f.mu.Unlock()
			return fn(f.last)
		}
	}
	f.Set.NewGauge("vaultdeck_follow_lag_seconds", read(func(p store.FollowProgress) float64 { return f.lag(p, f.now()).Seconds() }))
	f.Set.NewGauge("vaultdeck_follow_last_success_timestamp_seconds", read(func(p store.FollowProgress) float64 { return unix(p.SuccessAt) }))
	f.Set.NewGauge("vaultdeck_follow_consecutive_failures", read(func(p store.FollowProgress) float64 { return float64(p.Failures) }))
	f.Set.NewGauge("vaultdeck_follow_token_refused", read(func(p store.FollowProgress) float64 { return bool01(p.Refused && p.Failures > 0) }))
	return f
}

// Progressed records the follow's state after a read; delivered is the
// entries that read wrote.
func (f *Follow) Progressed(p store.FollowProgress, delivered int) {
	f.entries.Add(delivered)
	f.mu.Lock()
	f.last = p
	f.mu.Unlock()
}

// BudgetWait counts one wait of the client for its budget.
func (f *Follow) BudgetWait() { f.waits.Inc() }

func unix(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixMilli()) / 1000
}

func bool01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
