package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Recovery is what Recover did.
type Recovery struct {
	From string // the damaged file read
	// To is the fresh file written; Aside, when Recover put the fresh file
	// in From's place, is where the damaged one (with its -wal and -shm)
	// was moved to.
	To, Aside string
	Version   int
	Tables    []TableRows // what each table gave
}

// Recover copies what can be read of the database at path into a fresh
// file made by this vaultdeck's own schema. With to empty the fresh file
// takes path's place and the damaged one, with its log and index, is moved
// aside next to it under a name that says so; with to set, the fresh file
// is written there and path is left as it is (a copy, as a backup). Nothing
// is moved until the fresh file is complete and on disk: a failure (a disk
// full) removes the partial copy and leaves path where it was. A vaultdeck
// process that still has the damaged file open stops before its next
// request (Unchanged: the file was replaced).
func Recover(ctx context.Context, path, to string, now time.Time) (Recovery, error) {
	return RecoverWith(ctx, path, to, now, Options{})
}

// RecoverWith is Recover writing the fresh file through o's driver (the
// fault walk's, store/storefault).
func RecoverWith(ctx context.Context, path, to string, now time.Time, o Options) (Recovery, error) {
	rec := Recovery{From: path, To: to}
	old, err := openReadOnly(path)
	if err != nil {
		return rec, err
	}
	defer old.Close()
	rec.Version, err = schemaVersion(ctx, old)
	if err != nil {
		return rec, fmt.Errorf("the damaged file's schema version cannot be read, so its tables cannot be told: %w", err)
	}
	if rec.Version > len(migrations) {
		return rec, fmt.Errorf("the database is at schema version %d, newer than this vaultdeck understands (%d); recover it with the vaultdeck that wrote it", rec.Version, len(migrations))
	}
	swap := to == ""
	if swap {
		// The working copy is this command's own: one left by a recovery
		// that was killed is made again.
		rec.To = path + ".recovering"
		removeDatabase(rec.To)
	}
	if _, err := os.Lstat(rec.To); err == nil {
		return rec, fmt.Errorf("%s exists: it is not written over (remove it, or name another file)", rec.To)
	}
	if err := copyReadable(ctx, old, rec.To, &rec, o); err != nil {
		removeDatabase(rec.To)
		return rec, fmt.Errorf("nothing was changed (%s is where it was, the partial copy removed): %w", path, err)
	}
	if !swap {
		return rec, nil
	}
	old.Close()
	rec.Aside = fmt.Sprintf("%s.damaged-%s", path, now.UTC().Format("20060102T150405Z"))
	if err := moveDatabase(path, rec.Aside); err != nil {
		return rec, fmt.Errorf("the fresh copy is complete in %s, but the damaged file could not be moved aside: %w", rec.To, err)
	}
	if err := os.Rename(rec.To, path); err != nil {
		return rec, fmt.Errorf("the damaged file is now %s and the fresh copy %s, which could not be put in its place: %w", rec.Aside, rec.To, err)
	}
	rec.To = path
	return rec, syncDir(filepath.Dir(path))
}

// copyReadable makes the file at to with the schema at rec.Version, copies
// every row old gives into it, brings it to this vaultdeck's schema and
// syncs it to disk.
func copyReadable(ctx context.Context, old *sql.DB, to string, rec *Recovery, o Options) error {
	st, err := openRawWith(to, "OFF", o)
	if err != nil {
		return err
	}
	defer st.Close()
	db := st.db.db
	if rec.Version > 0 {
		if err := migrate(ctx, db, rec.Version); err != nil {
			return err
		}
	}
	tables, err := tableNames(ctx, db)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if t == "schema_version" {
			continue // migrate wrote it
		}
		tr, err := copyTable(ctx, old, db, t)
		rec.Tables = append(rec.Tables, tr)
		if err != nil {
			return fmt.Errorf("copying %s into %s: %w", t, to, err)
		}
	}
	if err := copySequences(ctx, old, db); err != nil {
		return err
	}
	if err := migrate(ctx, db, len(migrations)); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return err
	}
	f, err := os.Open(to)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// copyTable copies the rows of table that old can read into the same table
// of db (the columns both have), in one transaction.
func copyTable(ctx context.Context, old, db *sql.DB, table string) (TableRows, error) {
	tr := TableRows{Name: table}
	cols, err := columns(ctx, db, table)
	if err != nil {
		return tr, err
	}
	have, err := columns(ctx, old, table)
	if err != nil {
		tr.Stopped = "not readable in the damaged file: " + err.Error()
		return tr, nil
	}
	cols = slices.DeleteFunc(cols, func(c string) bool { return !slices.Contains(have, c) })
	if len(cols) == 0 {
		return tr, nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return tr, err
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO `+quote(table)+` (`+strings.Join(quoteAll(cols), ", ")+`) VALUES (?`+strings.Repeat(", ?", len(cols)-1)+`)`)
	if err != nil {
		return tr, err
	}
	defer ins.Close()
	tr.Rows, tr.Gaps, tr.Stopped, err = salvage(ctx, old, table, cols, func(v []any) error {
		_, err := ins.ExecContext(ctx, v...)
		return err
	})
	if err != nil {
		return tr, err
	}
	return tr, tx.Commit()
}

// columns are table's column names ("" table: none).
func columns(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	out, err := names(ctx, db, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no table %s", table)
	}
	return out, nil
}

// copySequences keeps each AUTOINCREMENT counter at least where the damaged
// file had it, so an id given before is never given again (receipts and
// runs are named by id).
func copySequences(ctx context.Context, old, db *sql.DB) error {
	seqs := map[string]int64{}
	err := scan(ctx, old, `SELECT name, seq FROM sqlite_sequence`, nil, 2, func(v []any) error {
		name, _ := v[0].(string)
		seq, _ := v[1].(int64)
		seqs[name] = seq
		return nil
	})
	if err != nil {
		return nil // no counters, or unreadable: the copied ids set them
	}
	for name, seq := range seqs {
		res, err := db.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?`, seq, name)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if _, err := db.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?)`, name, seq, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// moveDatabase moves a database file and the log and index beside it to
// to, keeping from the file it was until the fresh one is renamed over it:
// the file is linked at to first (renamed where links are not made), then
// its log and index are moved, so that at every step either name holds the
// whole damaged database and no log lies beside a file it is not of.
func moveDatabase(from, to string) error {
	if err := os.Link(from, to); err != nil {
		if err := os.Rename(from, to); err != nil {
			return err
		}
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(from+suffix, to+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

func removeDatabase(path string) {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(path + suffix)
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
