package store_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// TestAWriteWaitsOutALock: a write that meets another process's lock
// (SQLITE_BUSY after SQLite's own wait) is tried again, saying so each
// time, and is kept; it fails only past the bound, saying how long it
// waited, with SQLite's code still there for errors.As. Failing first: the
// first BUSY was the write's error (a lock held 12 s failed every journal
// write made during it).
func TestAWriteWaitsOutALock(t *testing.T) {
	inj := storefault.New()
	path := filepath.Join(t.TempDir(), store.FileName)
	var waits []store.BusyWait
	st, err := store.OpenWith(path, store.Options{Driver: inj.Driver(), Busy: func(w store.BusyWait) { waits = append(waits, w) }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SaveProfile(store.Profile{Name: "p", Region: "us"}); err != nil {
		t.Fatal(err)
	}
	for _, write := range []struct {
		name string
		do   func() error
	}{
		{"a transaction", func() error { return st.SetSetting("p", "theme", "dark") }},
		{"a statement", func() error { return st.RenewLeases("nobody", time.Now()) }},
	} {
		waits = nil
		inj.FailSpan(1, 3, storefault.Busy) // three attempts meet the lock
		if err := write.do(); err != nil {
			t.Fatalf("%s: %v", write.name, err)
		}
		if len(waits) != 3 || waits[0].Path != path || !strings.Contains(waits[0].String(), "another process") {
			t.Fatalf("%s: told of the wait %d times (%v)", write.name, len(waits), waits)
		}
	}
	if got, _ := st.Settings("p"); got["theme"] != "dark" {
		t.Fatalf("the write that waited was not kept: %v", got)
	}

	bounded, err := store.OpenWith(path, store.Options{Driver: inj.Driver(), BusyLimit: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer bounded.Close()
	inj.FailSpan(1, 1<<30, storefault.Busy) // a lock never released
	err = bounded.SetSetting("p", "theme", "light")
	var code interface{ Code() int }
	if err == nil || !strings.Contains(err.Error(), "stayed locked by another process") || !errors.As(err, &code) || code.Code() != 5 {
		t.Fatalf("past the bound: %v", err)
	}
}

// TestTheLedgerDoesNotWaitOutALock: a budget reservation has a fallback
// (the process's own budget), so a locked ledger is given up at once
// rather than waited for up to the write bound: with the lock held, every
// request of every process stalled as long as the lock (up to 2 minutes),
// and that wait counted nowhere. The journal's writes still wait (above).
func TestTheLedgerDoesNotWaitOutALock(t *testing.T) {
	inj := storefault.New()
	var waits []store.BusyWait
	st, err := store.OpenWith(filepath.Join(t.TempDir(), store.FileName), store.Options{Driver: inj.Driver(), Busy: func(w store.BusyWait) { waits = append(waits, w) }})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	inj.FailSpan(1, 1<<30, storefault.Busy) // a lock never released
	_, err = st.UpdateBudget("b", time.Now, time.Minute, 2*time.Minute, func(now time.Time, sent []time.Time, held time.Time) ([]time.Time, time.Time) {
		return []time.Time{now}, time.Time{}
	})
	if err == nil || len(waits) != 0 {
		t.Fatalf("a locked ledger: %v, after %d waits; want its error at once", err, len(waits))
	}
}
