// Package storefault is a test helper: it makes any single write of the
// store fail, as SQLite and FoundationDB test themselves, so a test can walk
// every write point of a job (an upload, a matter run) with every fault and
// check what a resume makes of it.
//
// An Injector registers a database/sql driver of its own that wraps
// modernc.org/sqlite. The write points it counts are, in the order the
// store makes them: the BEGIN of a write transaction, every statement that
// changes something (an Exec, or a Query of INSERT/UPDATE/DELETE), and the
// COMMIT. Reads are never counted, so the numbering of a job's writes does
// not move when it reads more or less.
//
// Use:
//
//	inj := storefault.New()
//	st, _ := store.OpenWith(path, store.Options{Driver: inj.Driver()})
//	inj.FailAt(7, storefault.DiskFull) // the 7th write from now fails
//	... run the job ...
//	inj.Points() // how many write points the job made (run once with no fault to count)
//
// A Crash stops the "process" at its write point: that write is not made
// (CrashAfterCommit: the COMMIT is made and then the process stops), and
// every later call of that Injector's connections fails with ErrCrashed, so
// nothing more is written; the test must also stop the process's other
// effects (its requests, see Crashed) and open a new store with a new
// Injector on the same file, as a new process would.
package storefault

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/vaultdeck/vaultdeck/store"
	"modernc.org/sqlite"
)

// Fault is what an injected failure looks like to the store.
type Fault int

const (
	None Fault = iota
	// Busy is SQLITE_BUSY: another process held the write lock past the
	// busy timeout.
	Busy
	// Locked is SQLITE_LOCKED: a lock conflict inside this process.
	Locked
	// DiskFull is SQLITE_FULL.
	DiskFull
	// IOError is SQLITE_IOERR (a failing disk, a vanished mount).
	IOError
	// Crash stops the process before the write.
	Crash
	// CrashAfterCommit stops the process after the write was made: at a
	// COMMIT the transaction is kept but its caller never learns it; at
	// any other point it is Crash.
	CrashAfterCommit
)

// Faults are every fault, for walking them all.
var Faults = []Fault{Busy, Locked, DiskFull, IOError, Crash, CrashAfterCommit}

func (f Fault) String() string {
	switch f {
	case None:
		return "none"
	case Busy:
		return "busy"
	case Locked:
		return "locked"
	case DiskFull:
		return "disk-full"
	case IOError:
		return "io-error"
	case Crash:
		return "crash"
	case CrashAfterCommit:
		return "crash-after-commit"
	}
	return fmt.Sprintf("fault(%d)", int(f))
}

// ErrCrashed is what every call returns once the process has "crashed".
var ErrCrashed = errors.New("storefault: the process crashed here (simulated); nothing more is written")

// Error is an injected SQLite error; Code is SQLite's result code, as
// modernc.org/sqlite's *Error reports it.
type Error struct {
	code  int
	fault Fault
	point int
}

func (e *Error) Error() string {
	var msg string
	switch e.fault {
	case Busy:
		msg = "database is locked (5) (SQLITE_BUSY)"
	case Locked:
		msg = "database table is locked (6) (SQLITE_LOCKED)"
	case DiskFull:
		msg = "database or disk is full (13) (SQLITE_FULL)"
	default:
		msg = "disk I/O error (10) (SQLITE_IOERR)"
	}
	return fmt.Sprintf("%s [injected at write %d]", msg, e.point)
}

// Code is the SQLite result code.
func (e *Error) Code() int { return e.code }

var codes = map[Fault]int{Busy: 5, Locked: 6, DiskFull: 13, IOError: 10}

// Point is one write point the Injector saw.
type Point struct {
	N    int    // 1-based, counted from the last FailAt or Reset
	Kind string // "begin", "exec" or "commit"
	SQL  string // the statement (exec), else ""
}

func (p Point) String() string {
	if p.SQL == "" {
		return fmt.Sprintf("#%d %s", p.N, p.Kind)
	}
	return fmt.Sprintf("#%d %s %s", p.N, p.Kind, oneLine(p.SQL))
}

// Injector counts write points and fails the chosen one.
type Injector struct {
	name string

	mu      sync.Mutex
	count   int
	at      int
	span    int // how many points from at fail (a lock held a while)
	fault   Fault
	fired   *Point
	trace   []Point
	crashed atomic.Bool
}

var registered atomic.Int64

// New registers a new driver and returns its Injector, counting from 0
// with no fault armed.
func New() *Injector {
	inj := &Injector{name: fmt.Sprintf("storefault-%d", registered.Add(1))}
	sql.Register(inj.name, &drv{inj: inj, inner: &sqlite.Driver{}})
	return inj
}

// Driver is the name to give store.Options.Driver.
func (i *Injector) Driver() string { return i.name }

// Open opens the store at path through this Injector, without an fsync at
// each commit (Options.NoSync): a simulated crash stops the process, not the
// machine, and a walk of hundreds of schedules then takes seconds. Use
// store.OpenWith with Driver() for other options.
func (i *Injector) Open(path string) (*store.Store, error) {
	return store.OpenWith(path, store.Options{Driver: i.name, NoSync: true})
}

// FailAt arms fault at the n-th write point from now (1-based) and restarts
// the count and trace; n <= 0 or None arms nothing (a counting run).
func (i *Injector) FailAt(n int, f Fault) { i.FailSpan(n, 1, f) }

// FailSpan fails k write points in a row from the n-th: Busy for k points
// is a lock another process holds through k attempts (the store tries a
// write again while it is busy, and each try is a new point).
func (i *Injector) FailSpan(n, k int, f Fault) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.count, i.at, i.span, i.fault, i.fired, i.trace = 0, n, k, f, nil, nil
}

// Reset counts from 0 again with nothing armed.
func (i *Injector) Reset() { i.FailAt(0, None) }

// Points is how many write points were made since the last FailAt/Reset.
func (i *Injector) Points() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.count
}

// Trace is every write point since the last FailAt/Reset, in order.
func (i *Injector) Trace() []Point {
	i.mu.Lock()
	defer i.mu.Unlock()
	return append([]Point(nil), i.trace...)
}

// Fired is the (first) point where the armed fault struck, if it has.
func (i *Injector) Fired() (Point, bool) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.fired == nil {
		return Point{}, false
	}
	return *i.fired, true
}

// Crashed reports whether a Crash struck: the process is "dead", and the
// test must make sure nothing else of it acts (no request is sent).
func (i *Injector) Crashed() bool { return i.crashed.Load() }

// write counts one write point and says what to do with it: nil to make
// it, an error to return instead. after is true when the write must be
// made and then the crash happen (CrashAfterCommit at a COMMIT).
func (i *Injector) write(kind, query string) (err error, after bool) {
	if i.crashed.Load() {
		return ErrCrashed, false
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	i.count++
	p := Point{N: i.count, Kind: kind, SQL: query}
	i.trace = append(i.trace, p)
	if i.count < i.at || i.count >= i.at+i.span || i.fault == None {
		return nil, false
	}
	if i.fired == nil {
		i.fired = &p
	}
	switch i.fault {
	case Crash:
		i.crashed.Store(true)
		return ErrCrashed, false
	case CrashAfterCommit:
		if kind == "commit" {
			return nil, true
		}
		i.crashed.Store(true)
		return ErrCrashed, false
	}
	return &Error{code: codes[i.fault], fault: i.fault, point: i.count}, false
}

// dead fails any call once crashed.
func (i *Injector) dead() error {
	if i.crashed.Load() {
		return ErrCrashed
	}
	return nil
}

// isWrite says whether a Query changes something.
func isWrite(query string) bool {
	q := strings.ToUpper(strings.TrimSpace(query))
	for _, verb := range []string{"INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER"} {
		if strings.HasPrefix(q, verb) {
			return true
		}
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
