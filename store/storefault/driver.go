// This file is the database/sql driver wrapper: every connection, statement
// and transaction of modernc.org/sqlite goes through it, and its write
// points ask the Injector first.

package storefault

import (
	"context"
	"database/sql/driver"
	"errors"
)

type drv struct {
	inj   *Injector
	inner driver.Driver
}

func (d *drv) Open(name string) (driver.Conn, error) {
	if err := d.inj.dead(); err != nil {
		return nil, err
	}
	c, err := d.inner.Open(name)
	if err != nil {
		return nil, err
	}
	return &conn{inj: d.inj, inner: c}, nil
}

// conn wraps one SQLite connection. modernc's connections implement every
// optional interface used here; the wrapper keeps them.
type conn struct {
	inj   *Injector
	inner driver.Conn
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if err := c.inj.dead(); err != nil {
		return nil, err
	}
	var s driver.Stmt
	var err error
	if p, ok := c.inner.(driver.ConnPrepareContext); ok {
		s, err = p.PrepareContext(ctx, query)
	} else {
		s, err = c.inner.Prepare(query)
	}
	if err != nil {
		return nil, err
	}
	return &stmt{inj: c.inj, inner: s, query: query}, nil
}

// Close always reaches SQLite: a dead process's connections are closed by
// the kernel, which releases its locks.
func (c *conn) Close() error { return c.inner.Close() }

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if opts.ReadOnly {
		if err := c.inj.dead(); err != nil {
			return nil, err
		}
	} else if err, _ := c.inj.write("begin", ""); err != nil {
		return nil, err
	}
	b, ok := c.inner.(driver.ConnBeginTx)
	if !ok {
		return nil, errors.New("storefault: the wrapped driver has no BeginTx")
	}
	t, err := b.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &tx{inj: c.inj, inner: t, readOnly: opts.ReadOnly}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.inner.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip // counted by the statement database/sql prepares instead
	}
	if err, _ := c.inj.write("exec", query); err != nil {
		return nil, err
	}
	return e.ExecContext(ctx, query, args)
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.inner.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip // counted by the statement database/sql prepares instead
	}
	if isWrite(query) {
		if err, _ := c.inj.write("exec", query); err != nil {
			return nil, err
		}
	} else if err := c.inj.dead(); err != nil {
		return nil, err
	}
	return q.QueryContext(ctx, query, args)
}

func (c *conn) Ping(ctx context.Context) error {
	if err := c.inj.dead(); err != nil {
		return err
	}
	if p, ok := c.inner.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *conn) ResetSession(ctx context.Context) error {
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *conn) IsValid() bool {
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	if n, ok := c.inner.(driver.NamedValueChecker); ok {
		return n.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

type tx struct {
	inj      *Injector
	inner    driver.Tx
	readOnly bool
}

// Commit of a write transaction is a write point. A failed commit leaves
// the connection clean, as modernc's own does: the transaction is rolled
// back, since SQLite keeps it open after a failed COMMIT.
func (t *tx) Commit() error {
	if t.readOnly {
		if err := t.inj.dead(); err != nil {
			t.inner.Rollback()
			return err
		}
		return t.inner.Commit()
	}
	err, after := t.inj.write("commit", "")
	if err != nil {
		t.inner.Rollback()
		return err
	}
	if after {
		cerr := t.inner.Commit()
		t.inj.crashed.Store(true)
		if cerr != nil {
			return cerr
		}
		return ErrCrashed
	}
	return t.inner.Commit()
}

// Rollback always reaches SQLite (a dead process's transaction is rolled
// back too, and its lock released).
func (t *tx) Rollback() error { return t.inner.Rollback() }

type stmt struct {
	inj   *Injector
	inner driver.Stmt
	query string
}

func (s *stmt) Close() error  { return s.inner.Close() }
func (s *stmt) NumInput() int { return s.inner.NumInput() }

// Exec and Query are driver.Stmt's pre-context methods: database/sql calls
// ExecContext and QueryContext, so these only route through them, faults
// and all, rather than reach the wrapped driver's deprecated ones.
func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), namedValues(args))
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), namedValues(args))
}

// namedValues numbers positional arguments as database/sql does (from 1).
func namedValues(args []driver.Value) []driver.NamedValue {
	nv := make([]driver.NamedValue, len(args))
	for i, v := range args {
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return nv
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if err, _ := s.inj.write("exec", s.query); err != nil {
		return nil, err
	}
	if e, ok := s.inner.(driver.StmtExecContext); ok {
		return e.ExecContext(ctx, args)
	}
	return nil, errors.New("storefault: the wrapped statement has no ExecContext")
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if isWrite(s.query) {
		if err, _ := s.inj.write("exec", s.query); err != nil {
			return nil, err
		}
	} else if err := s.inj.dead(); err != nil {
		return nil, err
	}
	if q, ok := s.inner.(driver.StmtQueryContext); ok {
		return q.QueryContext(ctx, args)
	}
	return nil, errors.New("storefault: the wrapped statement has no QueryContext")
}
