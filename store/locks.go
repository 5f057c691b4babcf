// This file keeps SQLite's locks on the database file where SQLite put them.
//
// SQLite's unix locks on the database file are POSIX record locks by
// default, and the kernel drops every POSIX lock a process holds on a file
// at any close(2) of any descriptor of that file. A vaultdeck process opens
// the file more than once (the upload journal and the budget ledger are two
// Stores): when the second Open opened and closed the file to make it
// private, the first Store's shared lock was gone, and another process that
// closed its own connection (python's sqlite3, the sqlite3 shell, a backup
// tool) took itself for the last user, checkpointed and deleted the
// write-ahead log under this one, whose later commits then went into the
// deleted file: no error, not kept (issue 25, case 1).

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"modernc.org/sqlite"
)

// init switches SQLite to Open File Description locks (Linux), which belong
// to the descriptor that took them and survive a close of any other one,
// whatever code of the process opens the file (a hash, a backup). They must
// be chosen before the first database is opened, hence init. OFD and POSIX
// locks conflict with each other, so vaultdeck still shares the file safely
// with processes that use POSIX locks (older vaultdecks, python, the shell).
// Elsewhere, or on a filesystem that refuses them, SQLite keeps POSIX locks
// and createPrivate below is what keeps them.
func init() {
	_, _ = sqlite.OFDLocking(true) // an error only says that POSIX locks stay
}

// createMu makes the check-and-create of createPrivate one step within the
// process, so no Store of the process can have the file open when a new
// one's descriptor is closed.
var createMu sync.Mutex

// createPrivate makes sure the database file exists and is private to the
// user before SQLite opens it: SQLite gives the -wal and -shm files the
// database file's mode, and the file may hold cached listings, receipts
// and the upload journal of a legal workspace. An existing file is never
// opened here (chmod works on the path): closing that descriptor could
// drop the locks of a Store already open on it.
func createPrivate(path string) error {
	createMu.Lock()
	defer createMu.Unlock()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		f.Close() // new: no connection of this process can hold it yet
	case !errors.Is(err, fs.ErrExist):
		return fmt.Errorf("the database %s could not be created: %w", path, err)
	}
	// A file already private is left as it is: chmod is a write, which a
	// store on a read-only filesystem refuses, and every command, the
	// read-only listings included, failed on it (issue 40, case 4).
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return fmt.Errorf("the database %s could not be made private: %w", path, err)
	}
	return nil
}
