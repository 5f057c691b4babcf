package store

import (
	"context"
	"database/sql"
	"sync/atomic"
)

// gatedDB is the *sql.DB of a Store, reached through a gate: a database
// opened in the background (OpenScratch) answers its first callers once it
// is open and migrated, so a caller never sees a half-made schema. A Store
// opened by Open has its gate open from the start.
type gatedDB struct {
	ready chan struct{} // closed once db (or err) is set
	db    *sql.DB
	err   error
	busy  busyPolicy // how a write waits for another process's lock
	// written is told of each statement Exec made (the Store's afterWrite).
	written func()
	// damage is set once the file was found damaged (damage.go): no
	// write is made after.
	damage atomic.Pointer[DamagedError]
}

func openGate(db *sql.DB, busy busyPolicy) *gatedDB {
	g := &gatedDB{ready: make(chan struct{}), db: db, busy: busy}
	close(g.ready)
	return g
}

// wait blocks until the database is open; err is why it could not be.
func (g *gatedDB) wait() (*sql.DB, error) {
	<-g.ready
	return g.db, g.err
}

// Exec waits for another process's lock as a transaction does (busy.go).
func (g *gatedDB) Exec(q string, args ...any) (sql.Result, error) {
	db, err := g.wait()
	if err != nil {
		return nil, err
	}
	if err := g.refused(); err != nil {
		return nil, err
	}
	var res sql.Result
	err = g.busy.whileBusy(func() error {
		var err error
		res, err = db.Exec(q, args...)
		return err
	})
	if err == nil && g.written != nil {
		g.written()
	}
	return res, g.noticed(err)
}

func (g *gatedDB) Query(q string, args ...any) (*sql.Rows, error) {
	db, err := g.wait()
	if err != nil {
		return nil, err
	}
	return db.Query(q, args...)
}

// QueryRow waits like the others; when the database could not be opened,
// the row's Scan reports that error.
func (g *gatedDB) QueryRow(q string, args ...any) *rowOrErr {
	db, err := g.wait()
	if err != nil {
		return &rowOrErr{err: err}
	}
	return &rowOrErr{row: db.QueryRow(q, args...)}
}

func (g *gatedDB) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	db, err := g.wait()
	if err != nil {
		return nil, err
	}
	return db.BeginTx(ctx, opts)
}

func (g *gatedDB) Close() error {
	db, err := g.wait()
	if err != nil || db == nil {
		return nil // nothing was opened
	}
	return db.Close()
}

// rowOrErr is a *sql.Row, or the error that kept the query from running.
type rowOrErr struct {
	row *sql.Row
	err error
}

func (r *rowOrErr) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	return r.row.Scan(dest...)
}

func (r *rowOrErr) Err() error {
	if r.err != nil {
		return r.err
	}
	return r.row.Err()
}
