package store

import (
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The window and longest hold of these tests, as the api package's.
const (
	testWindow  = time.Minute
	testMaxHold = 2 * time.Minute
)

// at is a clock stopped at t.
func at(t time.Time) func() time.Time { return func() time.Time { return t } }

// take is the api package's decision, in miniature: a slot when fewer than
// limit sends are recorded and no hold is on.
func take(s *Store, bucket string, limit int, now time.Time) (bool, error) {
	ok := false
	_, err := s.UpdateBudget(bucket, at(now), testWindow, testMaxHold, func(now time.Time, sent []time.Time, held time.Time) ([]time.Time, time.Time) {
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
	if _, err := s.UpdateBudget("A", at(t0), testWindow, testMaxHold, func(time.Time, []time.Time, time.Time) ([]time.Time, time.Time) { return nil, hold }); err != nil {
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

// Issue 25 case 3: rows dated in the future (the clock set back by an NTP
// step or a VM snapshot restored) held every process for hours. A send more
// than a window ahead of now is discarded, one less ahead counts as sent
// now, and a hold more than the longest hold ahead is discarded: a clock
// set back costs at most one window.
func TestBudgetLedgerTrustsNoTimeFromTheFuture(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.UnixMilli(1_700_000_000_000)
	// Ten sends three hours ahead (the clock was set back by three hours)
	// fill bucket A; B holds one send 30 s ahead and C a hold written by
	// an older vaultdeck from `Retry-After: 999999999`.
	for i := range 10 {
		s.db.Exec(`INSERT INTO budget_sends (bucket, sent_at) VALUES ('A', ?)`, now.Add(3*time.Hour+time.Duration(i)*time.Second).UnixMilli())
	}
	s.db.Exec(`INSERT INTO budget_sends (bucket, sent_at) VALUES ('B', ?)`, now.Add(30*time.Second).UnixMilli())
	s.db.Exec(`INSERT INTO budget_holds (bucket, until) VALUES ('C', ?)`, now.Add(999999999*time.Second).UnixMilli())
	if ok, err := take(s, "A", 10, now); !ok || err != nil {
		t.Errorf("sends three hours ahead still fill the window: %v %v", ok, err)
	}
	if ok, err := take(s, "C", 10, now); !ok || err != nil {
		t.Errorf("a hold of 31 years still holds: %v %v", ok, err)
	}
	// B's send is counted as made now: a limit of one is full until the
	// window has passed from now, not from 30 s ahead.
	if ok, _ := take(s, "B", 1, now.Add(59*time.Second)); ok {
		t.Error("the send 30 s ahead was dropped, not counted")
	}
	if ok, _ := take(s, "B", 1, now.Add(time.Minute)); !ok {
		t.Error("the send 30 s ahead held B past one window from now")
	}
}

// What is written is bounded as what is read: a hold past the longest hold
// is written as the longest, a send dated later than now as now, and the
// rows cleared from the future are said (how far ahead), once.
func TestBudgetLedgerBoundsWhatItWrites(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.UnixMilli(1_700_000_000_000)
	far := time.Unix(1<<62, 0) // Sub and UnixMilli of it overflow
	if _, err := s.UpdateBudget("A", at(now), testWindow, testMaxHold, func(time.Time, []time.Time, time.Time) ([]time.Time, time.Time) {
		return []time.Time{now.Add(time.Hour)}, far
	}); err != nil {
		t.Fatal(err)
	}
	var sent, until int64
	s.db.QueryRow(`SELECT sent_at FROM budget_sends`).Scan(&sent)
	s.db.QueryRow(`SELECT until FROM budget_holds`).Scan(&until)
	if sent != now.UnixMilli() || until != now.Add(testMaxHold).UnixMilli() {
		t.Errorf("written: a send %v and a hold %v after now, want 0 and %v",
			time.Duration(sent-now.UnixMilli())*time.Millisecond, time.Duration(until-now.UnixMilli())*time.Millisecond, testMaxHold)
	}
	// An older binary's rows: a send an hour ahead, a hold at the end of
	// int64 milliseconds.
	s.db.Exec(`INSERT INTO budget_sends (bucket, sent_at) VALUES ('B', ?)`, now.Add(time.Hour).UnixMilli())
	s.db.Exec(`INSERT INTO budget_holds (bucket, until) VALUES ('B', ?)`, int64(1<<63-1))
	noop := func(time.Time, []time.Time, time.Time) ([]time.Time, time.Time) { return nil, time.Time{} }
	ahead, err := s.UpdateBudget("B", at(now), testWindow, testMaxHold, noop)
	if err != nil || ahead < 100*365*24*time.Hour {
		t.Errorf("cleared rows said as %v ahead (%v), want the hold's centuries", ahead, err)
	}
	if ahead, _ := s.UpdateBudget("B", at(now), testWindow, testMaxHold, noop); ahead != 0 {
		t.Errorf("said again: %v", ahead)
	}
	var n int
	s.db.QueryRow(`SELECT count(*) FROM budget_holds WHERE bucket = 'B'`).Scan(&n)
	if n != 0 {
		t.Error("the hold of an older binary is still in the ledger")
	}
}
