//go:build linux

package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// SQLite's lock bytes on the database file (os_unix.c): readers hold a
// shared lock on SHARED_SIZE bytes from SHARED_FIRST for as long as a WAL
// connection is open; a closing connection that can lock them all
// exclusively believes itself the last one, checkpoints and deletes the log.
const (
	sqlitePendingByte = 0x40000000
	sqliteSharedFirst = sqlitePendingByte + 2
	sqliteSharedSize  = 510
)

// sharedLockHeld is the child's side of the test: exit 0 when another
// process holds a lock on the shared bytes (an exclusive lock would
// conflict with it), 1 when they are free.
func sharedLockHeld(path string) int {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 2
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: sqliteSharedFirst, Len: sqliteSharedSize}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return 2
	}
	if lk.Type == syscall.F_UNLCK {
		return 1
	}
	return 0
}

func lockedFromOutside(t *testing.T, path string) bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=locked", helperPath+"="+path)
	err := cmd.Run()
	if err == nil {
		return true
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return false
	}
	t.Fatalf("the lock probe failed: %v", err)
	return false
}

// TestOpenStoresKeepTheirLocks is issue 25's case 1 at its root. A vaultdeck
// process opens the database more than once (the upload journal and the
// budget ledger are two Stores, the second opened on the first request).
// POSIX record locks belong to the process, and closing ANY descriptor of
// the file drops all of them: the second Open, which opened and closed the
// file itself to make it private, took away the first Store's shared lock.
// Another process that then closed its connection (python's sqlite3 after
// `BEGIN EXCLUSIVE`, the sqlite3 shell, a backup tool) took itself for the
// last user and deleted the write-ahead log under the first Store, whose
// later commits went into the deleted file: no error, not kept (reproduced
// through the binary: 400 files uploaded, 100 still pending in the journal).
// Any innocent open and close of the file in the process (a hash, a copy)
// must not do it either.
func TestOpenStoresKeepTheirLocks(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	path := filepath.Join(t.TempDir(), FileName)
	first, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := first.PutCache("p", "k", []byte("x"), time.Now()); err != nil {
		t.Fatal(err)
	}
	if !lockedFromOutside(t, path) {
		t.Fatal("an open Store holds no shared lock on the database file: the probe cannot tell anything")
	}
	second, err := Open(path) // the ledger's Store
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if !lockedFromOutside(t, path) {
		t.Fatal("opening a second Store dropped the first one's lock on the database file: another process may now delete the write-ahead log under it")
	}
	f, err := os.Open(path) // anything else of the process: a hash, a backup
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !lockedFromOutside(t, path) {
		t.Fatal("opening and closing the database file elsewhere in the process dropped the Stores' locks")
	}
}
