// Package store keeps vaultdeck's local state in one embedded SQLite file:
// connection profiles, cached responses, the budget ledger, the upload
// journal, matter receipts, the audit mirror and access snapshots. It is the
// ground floor: the jobs in api/ name what they need of it as small
// interfaces that *Store satisfies. It never holds
// an API token; tokens live in the OS keyring (package api/token).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned (wrapped) when a profile or other record does not exist.
var ErrNotFound = errors.New("not found")

// Store is an open vaultdeck database. It is safe for concurrent use, and
// several vaultdeck processes may use the same file at once.
type Store struct {
	db   *gatedDB
	path string
	// now is the clock for created_at columns; tests replace it.
	now func() time.Time
	// files is what the database's files were when opened (files.go);
	// folding is set once its log was found removed, so every later write
	// is folded into the database file.
	files   *opened
	folding atomic.Bool
	wrote   atomic.Bool // a write was committed: Close folds the log
}

// busyTimeout is how long SQLite itself waits for another process's
// transaction before it reports SQLITE_BUSY. A write then waits again, in
// rounds of this length, up to busyLimit (busy.go): each round is a moment
// to say on a terminal what is waited for.
const busyTimeout = 5 * time.Second

// dsn builds the modernc.org/sqlite connection string. Each pragma is applied
// to every new pooled connection, busy_timeout first (the driver sorts it so).
//
//   - journal_mode=WAL lets readers and one writer (from any process) proceed
//     together, which is what two open consoles need.
//   - synchronous=FULL (OFF for OpenScratch) fsyncs the WAL at every commit. With WAL, NORMAL would
//     already survive kill -9 (committed frames are in the OS page cache), but
//     could lose the last commits on power loss or an OS crash. Our write
//     volume is a handful of small rows per user action, so the extra fsync
//     costs nothing anyone notices, and FULL makes "committed" mean "on disk".
//   - _txlock=immediate makes BEGIN take the write lock at once, so two
//     processes never both read under a shared lock and then deadlock on the
//     upgrade (which busy_timeout cannot resolve: SQLite returns BUSY at once).
//   - foreign_keys is on for any future migration that declares references.
func dsn(path string, sync string) string {
	// The path goes into a file: URI, so the characters URIs give meaning to
	// must be escaped.
	return dsnWith(path, "_pragma=journal_mode(WAL)"+
		"&_pragma=synchronous("+sync+")"+
		"&_pragma=foreign_keys(1)"+
		"&_txlock=immediate")
}

// dsnWith is the connection string of path with busy_timeout and params.
func dsnWith(path, params string) string {
	escaped := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
	return "file:" + escaped + "?_pragma=busy_timeout(" + fmt.Sprint(busyTimeout.Milliseconds()) + ")&" + params
}

// Open opens (creating when needed) the database at path and brings its
// schema up to date. The directory is created private to the user.
func Open(path string) (*Store, error) { return OpenWith(path, Options{}) }

// Options are the choices of OpenWith; the zero value is Open's.
type Options struct {
	// Driver is the database/sql driver the file is opened with: "" is
	// modernc.org/sqlite's "sqlite". It is the seam of the fault-injection
	// tests: store/storefault registers a wrapper of that driver under a
	// name of its own that fails a chosen write (busy, disk full, I/O
	// error, a crash), so a test can walk every write point of a job.
	// Production code never sets it.
	Driver string
	// Busy, when set, is told each time a write found the file locked by
	// another process for longer than SQLite's own wait (busy_timeout) and
	// will try again, so a command can say on a terminal what it waits for.
	Busy func(BusyWait)
	// BusyLimit bounds a write's whole wait; 0 is busyLimit (2 minutes).
	BusyLimit time.Duration
	// NoSync skips the fsync of each commit (synchronous=OFF, as
	// OpenScratch): for a database nothing has to survive a power loss in.
	// The fault-injection tests use it; a simulated crash of the process
	// leaves its commits in the OS's cache, as a real one does.
	NoSync bool
}

// OpenWith is Open with options (a test's driver, see Options.Driver).
func OpenWith(path string, o Options) (*Store, error) {
	if o.NoSync {
		return open(path, "OFF", o)
	}
	return open(path, "FULL", o)
}

// OpenScratchLater is Open for a throwaway database (the demo's, in a
// temporary home removed on exit): nothing in it has to survive a crash, so
// commits skip the fsync (synchronous=OFF). Creating and migrating a fresh
// file then takes a millisecond or two instead of an fsync per commit, which
// the demo used to pay before its first frame. It returns at once, and the
// database's directory does not exist yet: nothing is made and no goroutine
// runs until begin is called (the demo calls it once its first frame is on
// the screen, so that its temporary home is not made before). begin (once; later calls do nothing)
// makes the directory with mkdir and opens FileName in it in the
// background. Every call, Close included, waits until then, and reports
// mkdir's error as it would an opening's. first, when set, runs on the
// open database before any waiting call is let through (the demo claims
// its access crawl there, so that the console's first read finds it).
func OpenScratchLater(mkdir func() (string, error), first func(*Store)) (s *Store, begin func()) {
	g := &gatedDB{ready: make(chan struct{}), busy: busyPolicy{limit: busyLimit}}
	s = &Store{db: g, now: time.Now}
	return s, sync.OnceFunc(func() {
		go func() {
			defer close(g.ready) // the path and the database are set before
			dir, err := mkdir()
			if err != nil {
				g.err = err
				return
			}
			s.path = filepath.Join(dir, FileName)
			g.busy.path = s.path
			opened, err := open(s.path, "OFF", Options{})
			if err != nil {
				g.err = err
				return
			}
			if first != nil {
				first(opened)
			}
			s.files = opened.files
			g.written = s.afterWrite
			g.db = opened.db.db
		}()
	})
}

func open(path, sync string, o Options) (*Store, error) {
	s, err := openRawWith(path, sync, o)
	if err != nil {
		return nil, err
	}
	if err := s.db.busy.whileBusy(func() error { return migrate(context.Background(), s.db.db, len(migrations)) }); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("the database %s could not be brought up to date: %w", path, err)
	}
	return s, nil
}

func openRawWith(path, mode string, o Options) (*Store, error) {
	driver := o.Driver
	if driver == "" {
		driver = "sqlite"
	}
	if path == "" {
		return nil, errors.New("no database path was given")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("the directory for the database %s could not be created: %w", path, err)
	}
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	db, err := sql.Open(driver, dsn(path, mode))
	if err != nil {
		return nil, fmt.Errorf("the database %s could not be opened: %w", path, err)
	}
	busy := busyPolicy{path: path, limit: o.BusyLimit, notify: o.Busy}
	if busy.limit <= 0 {
		busy.limit = busyLimit
	}
	// Opening the first connection waits like any write: switching a
	// brand-new file to WAL takes a lock that SQLite reports as SQLITE_BUSY
	// at once, without consulting busy_timeout, when two processes start
	// together.
	if err := busy.whileBusy(func() error { return db.Ping() }); err != nil {
		db.Close()
		if !onReadOnlyFS(path) {
			return nil, fmt.Errorf("the database %s could not be opened: %w", path, err)
		}
		if db, err = openReadOnlyFS(driver, path); err != nil {
			return nil, fmt.Errorf("the database %s could not be opened on its read-only filesystem: %w", path, err)
		}
	}
	files, err := record(db, path)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("the database %s could not be opened: %w", path, err)
	}
	s := &Store{db: openGate(db, busy), path: path, now: time.Now, files: files}
	s.db.written = s.afterWrite
	return s, nil
}

// Path is the database file's path (a scratch store's once it is opened).
func (s *Store) Path() string {
	<-s.db.ready
	return s.path
}

// Close releases the database. Committed data is already on disk.
//
// What this Store wrote is folded into the database file first (a
// checkpoint that waits for nobody): SQLite folds and removes the log only
// when a process's last connection closes, and the budget ledger's stays
// open for the life of the process, so every command that wrote left its
// records in the log alone, lost to a cleaning script that removes
// vaultdeck.db-wal once vaultdeck has ended (issue 40).
func (s *Store) Close() error {
	<-s.db.ready
	if s.wrote.Load() {
		s.checkpoint()
	}
	s.files.close()
	return s.db.Close()
}

// Version is the schema version the database is at.
func (s *Store) Version() (int, error) {
	db, err := s.db.wait()
	if err != nil {
		return 0, err
	}
	return schemaVersion(context.Background(), db)
}

// inTx runs fn in one immediate transaction, committing when it returns nil.
// A transaction refused for another process's lock (at BEGIN, a statement or
// COMMIT) was rolled back whole and is run again, fn included, while the
// Store's busy policy allows: fn must not keep state from a refused run.
func (s *Store) inTx(fn func(tx *sql.Tx) error) error {
	return s.db.busy.whileBusy(func() error { return s.tx(fn) })
}

// inTxOnce is inTx without the waiting rounds: SQLite's own busy_timeout is
// the whole wait. It is for writes whose caller has a fallback (the budget
// ledger: the process's own budget), so a lock another process holds for
// a minute does not stall every request of every process for that minute.
func (s *Store) inTxOnce(fn func(tx *sql.Tx) error) error { return s.tx(fn) }

func (s *Store) tx(fn func(tx *sql.Tx) error) error {
	if _, err := s.db.wait(); err == nil {
		if err := s.db.refused(); err != nil {
			return err
		}
	}
	tx, err := s.db.BeginTx(context.Background(), nil)
	if err != nil {
		return s.db.noticed(fmt.Errorf("a database transaction could not start: %w", err))
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return s.db.noticed(err)
	}
	if err := tx.Commit(); err != nil {
		return s.db.noticed(fmt.Errorf("a database transaction could not be committed: %w", err))
	}
	s.afterWrite()
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
