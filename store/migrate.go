package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migration moves the schema from version-1 to version. Migrations are never
// edited once released: a database in the field may sit at any of them.
type migration struct {
	version int
	name    string
	sql     string
}

const createVersionTable = `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`

// schemaVersion reads the version; an empty database is at version 0.
func schemaVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var exists int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`).Scan(&exists); err != nil {
		return 0, fmt.Errorf("the schema version could not be read: %w", err)
	}
	if exists == 0 {
		return 0, nil
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(version) FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("the schema version could not be read: %w", err)
	}
	return int(v.Int64), nil
}

// migrate brings the schema to target, one transaction per step. Each step
// re-reads the version inside its (immediate, so write-locked) transaction,
// which is what lets two processes start at once: the second waits, sees the
// step done, and skips it.
// migrate brings the schema to target in one transaction: every pending
// step, or none of them. One commit instead of one per step matters at
// start-up: with synchronous=FULL each commit is an fsync, and a fresh
// database (every `vaultdeck demo`) used to pay one per migration before
// the first frame.
func migrate(ctx context.Context, db *sql.DB, target int) error {
	// A schema already at target needs no write transaction (BEGIN is
	// IMMEDIATE: a write), which a file on a read-only filesystem refuses.
	if current, err := schemaVersion(ctx, db); err == nil && current >= target && current <= len(migrations) {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("a migration transaction could not start: %w", err)
	}
	defer tx.Rollback()

	current, err := schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if current > len(migrations) {
		return fmt.Errorf("the database is at schema version %d, newer than this vaultdeck understands (%d); upgrade vaultdeck", current, len(migrations))
	}
	if current >= target {
		return nil
	}
	if _, err := tx.ExecContext(ctx, createVersionTable); err != nil {
		return fmt.Errorf("the schema_version table could not be created: %w", err)
	}
	for _, m := range migrations[current:target] {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %d (%s) failed: %w", m.version, m.name, err)
		}
	}
	last := migrations[target-1]
	if _, err := tx.ExecContext(ctx, `DELETE FROM schema_version`); err != nil {
		return fmt.Errorf("migration %d (%s) could not record its version: %w", last.version, last.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (?)`, last.version); err != nil {
		return fmt.Errorf("migration %d (%s) could not record its version: %w", last.version, last.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrations %d to %d could not be committed: %w", current+1, target, err)
	}
	return nil
}
