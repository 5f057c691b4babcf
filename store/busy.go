// This file is how a write waits for another process. One SQLite file is
// shared by every vaultdeck process of the machine (an upload, a sync, a
// crawl, the console), and python or the sqlite3 shell may hold its write
// lock too: a lock held for seconds is normal operation. SQLite's own wait
// (busy_timeout) is kept short so that a waiting write can be said on a
// terminal; whileBusy then tries again, up to busyLimit in all, so a lock
// held for 12 s costs a 12 s wait, not a lost or failed journal write.

package store

import (
	"errors"
	"fmt"
	"time"
)

// busyLimit is how long a write waits, in all, for another process's lock
// before it fails. Every transaction vaultdeck writes is a few rows; a lock
// held for minutes is a process stuck (or a person in the sqlite3 shell), and
// the write's error then stops the job that asked, with what to run.
const busyLimit = 2 * time.Minute

// BusyWait says that a write found the database locked by another process
// for longer than SQLite's own wait, and will try again.
type BusyWait struct {
	Path   string        // the database file
	Waited time.Duration // so far, for this write
	Limit  time.Duration // the write fails once it has waited this long
}

func (w BusyWait) String() string {
	return fmt.Sprintf("waiting for the local database %s: another process (another vaultdeck, a sync, a sqlite3 shell) holds its write lock; waited %s, gives up after %s",
		w.Path, w.Waited.Round(time.Second), w.Limit)
}

// busyPolicy is a Store's way of waiting (Options.Busy, Options.BusyLimit).
type busyPolicy struct {
	path   string
	limit  time.Duration
	notify func(BusyWait)
}

// isBusy reports whether err is SQLITE_BUSY or SQLITE_LOCKED (any extended
// code): another connection holds a lock, and trying again may succeed.
func isBusy(err error) bool {
	var coded interface{ Code() int }
	if err == nil || !errors.As(err, &coded) {
		return false
	}
	c := coded.Code() & 0xff
	return c == 5 || c == 6
}

// whileBusy runs op (a whole transaction, or one statement) until it is not
// refused for a lock, or until the policy's limit has passed; then the last
// error is returned, saying how long it waited. A transaction refused for a
// lock was rolled back whole, so running it again is safe.
func (p busyPolicy) whileBusy(op func() error) error {
	start := time.Now()
	for pause := time.Millisecond; ; pause = min(2*pause, 500*time.Millisecond) {
		err := op()
		if !isBusy(err) {
			return err
		}
		waited := time.Since(start)
		if waited >= p.limit {
			return fmt.Errorf("the local database %s stayed locked by another process for %s (vaultdeck waits at most %s): %w",
				p.path, waited.Round(time.Second), p.limit, err)
		}
		if p.notify != nil {
			p.notify(BusyWait{Path: p.path, Waited: waited, Limit: p.limit})
		}
		time.Sleep(pause)
	}
}
