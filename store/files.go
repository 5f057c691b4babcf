// This file is how a Store notices that its files changed under it. SQLite
// keeps what was committed since the last checkpoint in the write-ahead log
// (vaultdeck.db-wal) and coordinates processes through the shared-memory
// index (vaultdeck.db-shm). A cleaning script or a careless backup that
// removes them, a restore that renames a copy over the database, or a
// directory moved away leave SQLite writing into files nobody will read
// again: no error, and every commit since is lost when the process ends
// (issue 40: "300 uploaded", and `uploads` then showed no run). SQLite's
// "How To Corrupt An SQLite Database File" lists these; it cannot see them
// at a write, so a job asks Unchanged before each request it sends.

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrChanged is returned (wrapped, as a *ChangedError) by Unchanged when a
// file of the database is no longer the one this Store opened.
var ErrChanged = errors.New("the local database's files changed under this process")

// ChangedError says which files changed and what became of this process's
// commits.
type ChangedError struct {
	Path string   // the database file
	What []string // each change, a clause: "the write-ahead log ... was removed"
	// Folded: the log was removed but the database file is still the one
	// opened, so what this process committed was folded into the database
	// file (a checkpoint) and is kept. FoldErr says why it could not be.
	Folded  bool
	FoldErr error
}

func (e *ChangedError) Error() string {
	var b strings.Builder
	b.WriteString("the local database's files changed under this process: ")
	b.WriteString(strings.Join(e.What, "; "))
	switch {
	case e.Folded:
		fmt.Fprintf(&b, "; what this process recorded is kept (folded into %s)", e.Path)
	case e.FoldErr != nil:
		fmt.Fprintf(&b, "; what this process recorded since could not be folded into %s (%v) and is lost when it ends", e.Path, e.FoldErr)
	}
	b.WriteString(". Keep vaultdeck.db, vaultdeck.db-wal and vaultdeck.db-shm together while vaultdeck runs (back up with `vaultdeck store recover --to FILE` or sqlite3's .backup, never by copying or moving the files)")
	return b.String()
}

func (e *ChangedError) Is(target error) bool { return target == ErrChanged }

// opened is what a Store's files were right after it opened them; a nil
// FileInfo is a file that did not exist then (a store on a read-only
// filesystem has no log), and is not checked.
type opened struct {
	db, wal, shm os.FileInfo
	// pin is a connection held for the Store's life and never used: SQLite
	// removes the log when a process's last connection closes, and the pool
	// may close an idle one, so without it a log SQLite itself made anew
	// would read as replaced.
	pin *sql.Conn

	mu      sync.Mutex
	changed *ChangedError // sticky: the first change found
}

// record stats the files db has just opened.
func record(db *sql.DB, path string) (*opened, error) {
	pin, err := db.Conn(context.Background())
	if err != nil {
		return nil, err
	}
	// A read opens the log and the index, which the identities are of.
	var v int
	if err := pin.QueryRowContext(context.Background(), `PRAGMA schema_version`).Scan(&v); err != nil {
		pin.Close()
		return nil, err
	}
	o := &opened{pin: pin}
	o.db, _ = os.Stat(path)
	o.wal, _ = os.Stat(path + "-wal")
	o.shm, _ = os.Stat(path + "-shm")
	return o, nil
}

func (o *opened) close() {
	if o != nil && o.pin != nil {
		o.pin.Close()
	}
}

// Unchanged reports (a *ChangedError, errors.Is ErrChanged) when the
// database file, its write-ahead log or its shared-memory index at this
// Store's path is not the file it opened: removed, renamed away, replaced by
// another file (a copy of itself included), or its directory moved. The
// files SQLite holds open cannot be reused by another file while it holds
// them, so the same file at the path proves they are still the ones it
// writes. When only the log was removed, the database file is still the
// one opened and what this process committed is in the removed log: it is
// folded into the database file at once, and after every later write of
// this Store, so it outlives the process. A change found stays found: once
// the files moved, nothing this Store does makes them right again. It costs
// three stat calls, so a job asks it before each request.
func (s *Store) Unchanged() error {
	select {
	case <-s.db.ready:
	default:
		return nil // a scratch store not yet opened has no files
	}
	o := s.files
	if o == nil {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.changed != nil {
		return o.changed
	}
	e := &ChangedError{Path: s.path}
	dbMoved := describe(&e.What, "the database file", s.path, o.db)
	walGone := false
	if !dbMoved {
		walGone = o.wal != nil && missing(s.path+"-wal")
		describe(&e.What, "the write-ahead log", s.path+"-wal", o.wal)
		describe(&e.What, "the shared-memory index", s.path+"-shm", o.shm)
	}
	if len(e.What) == 0 {
		return nil
	}
	if walGone {
		// Nobody made a new log yet, so no other process opened the file
		// since: folding this process's log into it is what SQLite's own
		// close would do. A new log at the path would mean another process
		// reads the file without what this one wrote: then folding would
		// write pages under it, and is not done.
		if e.FoldErr = s.fold(); e.FoldErr == nil {
			e.Folded = true
			s.folding.Store(true)
		}
	}
	o.changed = e
	return e
}

// describe adds what became of the file at path since it was was (nil: it
// did not exist then, nothing to compare) and reports whether it changed.
func describe(what *[]string, name, path string, was os.FileInfo) bool {
	if was == nil {
		return false
	}
	now, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(path)
		if missing(dir) {
			*what = append(*what, fmt.Sprintf("the directory %s is gone (renamed or removed)", dir))
		} else {
			*what = append(*what, fmt.Sprintf("%s %s was removed (or moved away)", name, path))
		}
	case err != nil:
		*what = append(*what, fmt.Sprintf("%s %s cannot be checked: %v", name, path, err))
	case !os.SameFile(was, now):
		*what = append(*what, fmt.Sprintf("%s %s was replaced by another file (a copy or a restore put in its place, or a rename over it)", name, path))
	default:
		return false
	}
	return true
}

func missing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// fold writes what the log holds into the database file and empties the
// log (a checkpoint). A checkpoint that another reader keeps from finishing
// says so.
func (s *Store) fold() error {
	var busy, logged, moved int
	if err := s.files.pin.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &moved); err != nil {
		return err
	}
	if busy != 0 {
		return errors.New("another connection kept the checkpoint from finishing")
	}
	return nil
}

// checkpoint folds the log into the database file as far as other
// readers allow, and says nothing: the records stay in the log, safe, where
// it could not.
func (s *Store) checkpoint() {
	if s.files == nil || s.files.pin == nil {
		return
	}
	s.files.mu.Lock()
	defer s.files.mu.Unlock()
	if s.files.changed == nil {
		var busy, logged, moved int
		_ = s.files.pin.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &moved)
	}
}

// afterWrite folds a write into the database file once the log it went
// into was found removed (Unchanged): the log dies with the process.
func (s *Store) afterWrite() {
	s.wrote.Store(true)
	if s.folding.Load() {
		s.files.mu.Lock()
		defer s.files.mu.Unlock()
		if err := s.fold(); err != nil && s.files.changed != nil && s.files.changed.FoldErr == nil {
			s.files.changed.Folded, s.files.changed.FoldErr = false, err
		}
	}
}
