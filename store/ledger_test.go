package store

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// take is the api package's decision, in miniature: a slot when fewer than
// limit sends are recorded and no hold is on.
func take(s *Store, bucket string, limit int, now time.Time) (bool, error) {
	ok := false
	err := s.UpdateBudget(bucket, now.Add(-time.Minute), func(sent []time.Time, held time.Time) ([]time.Time, time.Time) {
		if now.Before(held) || len(sent) >= limit {
			return nil, time.Time{}
		}
		ok = true
		return []time.Time{now}, time.Time{}
	})
	return ok, err
}

// Two processes (two Store handles on one file, as two vaultdeck commands
// have) reserving at once never both get the last slot: 40 goroutines over
// two handles ask for 10 slots, and exactly 10 are given.
func TestBudgetLedgerConcurrentReservesNeverExceed(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	now := time.UnixMilli(1_700_000_000_000)
	var granted atomic.Int32
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			ok, err := take(s, "http://x|workspace:w|vault", 10, now)
			if err != nil {
				t.Error(err)
			}
			if ok {
				granted.Add(1)
			}
		}()
	}
	wg.Wait()
	if granted.Load() != 10 {
		t.Fatalf("%d slots granted of 10", granted.Load())
	}
}

// Sends leave the ledger once the window has passed (a row per request,
// pruned), holds are kept until they end, and buckets do not mix.
func TestBudgetLedgerPrunesAndHolds(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.UnixMilli(1_700_000_000_000)
	for range 3 {
		if ok, err := take(s, "A", 3, t0); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	if ok, _ := take(s, "A", 3, t0.Add(time.Second)); ok {
		t.Fatal("a fourth send in the window was allowed")
	}
	if ok, _ := take(s, "B", 3, t0.Add(time.Second)); !ok {
		t.Fatal("bucket B was charged for A's sends")
	}
	// A hold (a 429) stops the bucket until it ends.
	hold := t0.Add(2 * time.Minute)
	if err := s.UpdateBudget("A", t0, func([]time.Time, time.Time) ([]time.Time, time.Time) { return nil, hold }); err != nil {
		t.Fatal(err)
	}
	if ok, _ := take(s, "A", 3, t0.Add(90*time.Second)); ok {
		t.Fatal("a held bucket gave a slot")
	}
	if ok, _ := take(s, "A", 3, hold); !ok {
		t.Fatal("the bucket stayed shut after its hold and window ended")
	}
	var rows int
	s.db.QueryRow(`SELECT count(*) FROM budget_sends`).Scan(&rows)
	if rows != 1 {
		t.Errorf("%d rows left, want the one send inside the window", rows)
	}
}
