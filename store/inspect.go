// This file reads a database that may be damaged, for `vaultdeck store
// check` and `store recover`: opened read-only, never migrated, and read
// table by table so that a damaged page costs the rows on it, not the
// rest of the file.

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
)

// Inspection is what Inspect found in a database file.
type Inspection struct {
	Path    string
	Size    int64 // the database file's bytes (its log's not counted)
	Version int   // the schema version, -1 when it could not be read
	// Problems are integrity_check's findings (at most maxProblems, the
	// last saying how many more); none when the file is whole.
	Problems []string
	Tables   []TableRows
}

// Whole says the check found nothing wrong.
func (in Inspection) Whole() bool { return len(in.Problems) == 0 }

// TableRows is what a scan of one table could read.
type TableRows struct {
	Name string
	Rows int64 // rows read
	// Gaps are the stretches of the table that could not be read (a
	// damaged page or subtree), skipped over; Stopped is why a scan could
	// not go on past one (a table without rowids, a damaged root).
	Gaps    int
	Stopped string
}

const maxProblems = 20

// openReadOnly opens path for reading only: nothing is created, migrated
// or written, so a damaged file is left as it was found, and a file on a
// read-only filesystem can be read.
func openReadOnly(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("the database %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsnWith(path, "mode=ro"))
	if err == nil {
		err = db.Ping()
	}
	if err != nil {
		if db != nil {
			db.Close()
		}
		if !onReadOnlyFS(path) {
			return nil, fmt.Errorf("the database %s could not be opened: %w", path, err)
		}
		if db, err = openReadOnlyFS("sqlite", path); err != nil {
			return nil, fmt.Errorf("the database %s could not be opened on its read-only filesystem: %w", path, err)
		}
	}
	db.SetMaxOpenConns(1) // one connection: one view of the file
	return db, nil
}

// Inspect runs SQLite's integrity_check over the file at path and reads
// every table as far as it can. It writes nothing. An error is a file that
// could not be read at all (missing, not a database).
func Inspect(ctx context.Context, path string) (Inspection, error) {
	in := Inspection{Path: path, Version: -1}
	if fi, err := os.Stat(path); err == nil {
		in.Size = fi.Size()
	}
	db, err := openReadOnly(path)
	if err != nil && malformed(err) {
		// damaged where opening reads (the schema's page, a log frame an
		// open process indexed): that is the finding
		in.Problems = []string{err.Error()}
		return in, nil
	}
	if err != nil {
		return in, err
	}
	defer db.Close()
	if v, err := schemaVersion(ctx, db); err == nil {
		in.Version = v
	}
	in.Problems, err = integrityProblems(ctx, db)
	if err != nil {
		return in, err
	}
	// A damaged log reads as a whole file: SQLite stops at the first frame
	// whose checksum fails and says nothing of the commits after it.
	if lost, err := walLost(path); err != nil || lost != "" {
		in.Problems = append(in.Problems, cmpOr(lost, fmt.Sprint(err)))
	}
	tables, err := tableNames(ctx, db)
	if err != nil {
		in.Problems = append(in.Problems, "the list of tables could not be read: "+err.Error())
		return in, nil
	}
	for _, t := range tables {
		tr := TableRows{Name: t}
		tr.Rows, tr.Gaps, tr.Stopped, _ = salvage(ctx, db, t, nil, func([]any) error { return nil })
		in.Tables = append(in.Tables, tr)
	}
	return in, nil
}

// integrityProblems is integrity_check's list, "ok" left out. A check that
// cannot run through is a problem too, said as SQLite said it.
func integrityProblems(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check(`+fmt.Sprint(maxProblems+1)+`)`)
	if err != nil {
		if malformed(err) {
			return []string{err.Error()}, nil
		}
		return nil, fmt.Errorf("the database could not be read: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return append(out, err.Error()), nil
		}
		if line != "ok" {
			// "*** in database main ***\nPage 87: ..." is one finding
			out = append(out, strings.Join(strings.Fields(line), " "))
		}
	}
	if err := rows.Err(); err != nil {
		out = append(out, err.Error())
	}
	if len(out) > maxProblems {
		out = append(out[:maxProblems], "and more")
	}
	return out, nil
}

// tableNames are the file's own tables (SQLite's internal ones left out),
// in the schema's order.
func tableNames(ctx context.Context, db *sql.DB) ([]string, error) {
	return names(ctx, db, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rootpage`)
}

// names are the first column of q's rows, as far as they could be read
// (a damaged file may answer some rows and then fail).
func names(ctx context.Context, db *sql.DB, q string, args ...any) ([]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return out, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// hasRowid says whether table is a rowid table (not WITHOUT ROWID).
// Preparing reads no row, so a damaged table still answers.
func hasRowid(ctx context.Context, db *sql.DB, table string) bool {
	st, err := db.PrepareContext(ctx, `SELECT rowid FROM `+quote(table)+` LIMIT 0`)
	if err != nil {
		return false
	}
	st.Close()
	return true
}

func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// salvage hands fn every row of table it can read (cols: nil for a count;
// else the columns, rowid first), in rowid order, and skips a stretch it
// cannot read: it seeks past it, doubling the stride, then narrows back to
// the first rowid it can reach, so only the rows on the damaged pages are
// lost. A table without rowids is read in its key's order up to the first
// damage. It returns the rows read, the stretches skipped and, when the
// scan could not go on, why; fn's error stops it and is returned.
func salvage(ctx context.Context, db *sql.DB, table string, cols []string, fn func([]any) error) (n int64, gaps int, stopped string, err error) {
	list := ""
	if len(cols) > 0 {
		list = ", " + strings.Join(quoteAll(cols), ", ")
	}
	if !hasRowid(ctx, db, table) {
		err := scan(ctx, db, `SELECT 1`+list+` FROM `+quote(table), nil, len(cols)+1, func(v []any) error { n++; return fn(v[1:]) })
		var stop *stopErr
		if errors.As(err, &stop) {
			return n, 0, "", stop.err
		}
		if err != nil {
			return n, 0, "read up to a damaged page (a table without rowids is not read past one): " + err.Error(), nil
		}
		return n, 0, "", nil
	}
	// rowid >= from, never > last: a seek for "after last" lands on
	// last's page, the damaged one, where a seek for the next rowid goes
	// straight past it.
	q := `SELECT rowid` + list + ` FROM ` + quote(table) + ` NOT INDEXED WHERE rowid >= ? ORDER BY rowid LIMIT 1000`
	last, from := int64(math.MinInt64), int64(math.MinInt64)
	for {
		got := 0
		err := scan(ctx, db, q, []any{from}, len(cols)+1, func(v []any) error {
			got++
			last = v[0].(int64)
			from = last + 1
			n++
			return fn(v[1:])
		})
		var stop *stopErr
		switch {
		case errors.As(err, &stop):
			return n, gaps, "", stop.err
		case err == nil && got == 0:
			return n, gaps, "", nil
		case err == nil && last == math.MaxInt64:
			return n, gaps, "", nil
		case err == nil:
			continue
		case !malformed(err):
			return n, gaps, err.Error(), nil
		}
		next, ok := reachable(ctx, db, table, last)
		if !ok {
			return n, gaps + 1, "", nil
		}
		gaps++
		from = next
	}
}

// stopErr is fn's own error inside scan, told apart from a read's.
type stopErr struct{ err error }

func (e *stopErr) Error() string { return e.err.Error() }

// reachable is the first rowid after last that a seek can read (the rows
// between are on pages that cannot be read); false when none can be.
func reachable(ctx context.Context, db *sql.DB, table string, last int64) (int64, bool) {
	probe := func(from int64) (int64, bool, error) {
		var id int64
		err := db.QueryRowContext(ctx, `SELECT rowid FROM `+quote(table)+` NOT INDEXED WHERE rowid >= ? ORDER BY rowid LIMIT 1`, from).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, false, nil
		}
		return id, err == nil, err
	}
	bad, stride := last, int64(1)
	for {
		from := bad + stride
		if from < bad { // past the largest rowid
			return 0, false
		}
		id, ok, err := probe(from)
		if err == nil && !ok {
			return 0, false // nothing after the damage
		}
		if err != nil {
			bad, stride = from, stride*2
			continue
		}
		// from reads; the first readable one is between bad and from
		lo, hi, best := bad+1, from, id
		for lo < hi {
			mid := lo + (hi-lo)/2
			if id, ok, err := probe(mid); err == nil && ok {
				best, hi = id, mid
			} else {
				lo = mid + 1
			}
		}
		return best, true
	}
}

// scan runs q and hands fn each row's values (width columns).
func scan(ctx context.Context, db *sql.DB, q string, args []any, width int, fn func([]any) error) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v := make([]any, width)
		ptrs := make([]any, width)
		for i := range v {
			ptrs[i] = &v[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := fn(v); err != nil {
			return &stopErr{err}
		}
	}
	return rows.Err()
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = quote(n)
	}
	return out
}
