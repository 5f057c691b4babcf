// This file opens a database on a read-only filesystem (a mounted backup, a
// locked-down home), so that the commands that only read it work there.
// SQLite cannot open a database in WAL mode for writing on such a
// filesystem, nor read it without its -shm index, which cannot be made
// there; with no log to read (none, or an empty one) the file alone is the
// whole database and SQLite reads it as immutable.

package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// onReadOnlyFS reports whether path's file cannot be opened for writing
// because its filesystem is read-only. The descriptor of the probe is
// closed at once: SQLite could not open the file, so no lock of this
// process is on it to lose.
func onReadOnlyFS(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err == nil {
		f.Close()
		return false
	}
	return errors.Is(err, syscall.EROFS)
}

// openReadOnlyFS opens path as it can be read on a read-only filesystem,
// or says why it cannot.
func openReadOnlyFS(driver, path string) (*sql.DB, error) {
	wal, err := os.Stat(path + "-wal")
	params := "mode=ro"
	switch {
	case errors.Is(err, os.ErrNotExist) || err == nil && wal.Size() == 0:
		params += "&immutable=1"
	case err != nil:
		return nil, err
	default:
		if _, err := os.Stat(path + "-shm"); err != nil {
			return nil, fmt.Errorf("it is on a read-only filesystem with a write-ahead log but no index (-shm) beside it, which SQLite needs to read the log: %w", err)
		}
	}
	db, err := sql.Open(driver, dsnWith(path, params))
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
