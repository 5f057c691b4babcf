package cli

import (
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// processLedger is the store's budget ledger for one process: the database
// is opened on the first request that needs the budget (a command that sends
// nothing never opens it) and kept open for the life of the process, which
// closes it on exit. Every vaultdeck process on the machine reserves from the
// same file, so they share the workspace's limits.
type processLedger struct {
	open func() (*store.Store, error)

	once sync.Once
	st   *store.Store
	err  error
}

// UpdateBudget implements api.Ledger.
func (l *processLedger) UpdateBudget(bucket string, clock func() time.Time, window, maxHold time.Duration,
	update func(now time.Time, sent []time.Time, heldUntil time.Time) (add []time.Time, holdUntil time.Time)) (time.Duration, error) {
	l.once.Do(func() { l.st, l.err = l.open() })
	if l.err != nil {
		return 0, l.err
	}
	return l.st.UpdateBudget(bucket, clock, window, maxHold, update)
}
