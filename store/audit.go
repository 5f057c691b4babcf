package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The audit-log mirror (the methods api/audit names as its Mirror, over the
// record types of audit_records.go): entries of each log keyed
// by id, the service's JSON kept byte for byte, the cursor moved in the same
// transaction as the entries it covers, so a kill at any moment leaves
// either the whole page and its cursor or neither.

func micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

// boundMicros is a bound of a time range in the mirror's microseconds,
// rounded up: entries are kept to the microsecond, so t >= B and t < B
// (B finer than that, as the console's C once gave NEWEST+1ns) hold of a
// kept time exactly when they hold against B rounded up. Truncating it
// lost the entry at B's microsecond from an --until (issue 42).
func boundMicros(t time.Time) int64 {
	us := micros(t)
	if !t.IsZero() && t.Sub(time.UnixMicro(us)) > 0 {
		us++
	}
	return us
}

// wholeMicros says t falls on a microsecond, as every kept time does.
func wholeMicros(t time.Time) bool { return t.IsZero() || t.Equal(time.UnixMicro(micros(t))) }

func fromMicros(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}

// AuditState is the mirror's reach for log.
func (s *Store) AuditState(ctx context.Context, log string) (AuditMirrorState, error) {
	var st AuditMirrorState
	var first, last, caught int64
	var empty int
	err := s.db.QueryRow(`SELECT cursor, first_at, last_at, entries, caught_up, empty FROM audit_logs WHERE key = ?`, log).
		Scan(&st.Cursor, &first, &last, &st.Entries, &caught, &empty)
	if errors.Is(err, sql.ErrNoRows) {
		return AuditMirrorState{}, nil
	}
	if err != nil {
		return AuditMirrorState{}, fmt.Errorf("the audit mirror could not be read: %w", err)
	}
	st.First, st.Last, st.CaughtUp, st.Empty = fromMicros(first), fromMicros(last), fromMicros(caught), empty == 1
	return st, nil
}

// SaveAuditPage stores a page and moves the cursor in one transaction.
func (s *Store) SaveAuditPage(ctx context.Context, p AuditMirrorPage) error {
	err := s.inTx(func(tx *sql.Tx) error {
		var id int64
		var cursor string
		var first, last int64
		err := tx.QueryRowContext(ctx, `SELECT id, cursor, first_at, last_at FROM audit_logs WHERE key = ?`, p.Log).Scan(&id, &cursor, &first, &last)
		if errors.Is(err, sql.ErrNoRows) {
			res, err := tx.ExecContext(ctx, `INSERT INTO audit_logs (key) VALUES (?)`, p.Log)
			if err != nil {
				return err
			}
			if id, err = res.LastInsertId(); err != nil {
				return err
			}
		} else if err != nil {
			return err
		}
		if cursor != p.Prev {
			return fmt.Errorf("%w (it is at %s, the page was read after %q)", ErrAuditCursorMoved, cursor, p.Prev)
		}
		ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO audit_entries (log, id, at, type, user, ip, raw) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		var added int64
		for _, e := range p.Entries {
			res, err := ins.ExecContext(ctx, id, e.ID, micros(e.Time), e.Type, e.User, e.IP, e.Raw)
			if err != nil {
				return err
			}
			n, _ := res.RowsAffected()
			added += n
			if at := micros(e.Time); at != 0 {
				if first == 0 || at < first {
					first = at
				}
				last = max(last, at)
			}
		}
		caught := any(nil)
		if p.CaughtUp {
			caught = micros(p.At)
		}
		_, err = tx.ExecContext(ctx, `UPDATE audit_logs SET cursor = ?, first_at = ?, last_at = ?, entries = entries + ?,
	caught_up = coalesce(?, caught_up), empty = ? WHERE id = ?`, p.Cursor, first, last, added, caught, boolInt(p.Empty), id)
		return err
	})
	if err != nil && !errors.Is(err, ErrAuditCursorMoved) {
		return fmt.Errorf("the audit mirror could not record a page: %w", err)
	}
	return err
}

// AuditEntries hands the entries of log that pass f to fn, in the mirror's
// order (time, then the service's), oldest first unless f.Newest.
func (s *Store) AuditEntries(ctx context.Context, log string, f AuditFilter, fn func(AuditEntry) error) error {
	q, args := auditQuery(log, f)
	db, err := s.db.wait()
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("the audit mirror could not be read: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&e.Seq, &e.ID, &at, &e.Type, &e.User, &e.IP, &e.Raw); err != nil {
			return fmt.Errorf("the audit mirror could not be read: %w", err)
		}
		e.Time = fromMicros(at)
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("the audit mirror could not be read: %w", err)
	}
	return nil
}

// auditQuery builds the SELECT for f. Each filter column has an index
// beginning (log, column, at), and (log, at) serves the time range, so
// the order by at (then seq, the rowid every index carries) is read from
// an index, not sorted.
func auditQuery(log string, f AuditFilter) (string, []any) {
	var b strings.Builder
	b.WriteString(`SELECT seq, id, at, type, user, ip, raw FROM audit_entries WHERE log = (SELECT id FROM audit_logs WHERE key = ?)`)
	args := []any{log}
	add := func(cond string, v ...any) {
		b.WriteString(" AND " + cond)
		args = append(args, v...)
	}
	if !f.Since.IsZero() {
		add("at >= ?", boundMicros(f.Since))
	}
	if !f.Until.IsZero() {
		add("at < ?", boundMicros(f.Until))
	}
	if f.Type != "" {
		add("type = ?", f.Type)
	}
	if f.User != "" {
		add("user = ?", f.User)
	}
	if f.IP != "" {
		add("ip = ?", f.IP)
	}
	if f.Grep != "" {
		add(`CAST(raw AS TEXT) LIKE ? ESCAPE '\'`, "%"+likeEscape(f.Grep)+"%")
	}
	// A position between two microseconds (an --until the walk starts
	// below) has no kept entry at its time: what is after it begins at
	// the next microsecond, what is before it ends there.
	if !f.After.IsZero() {
		if at := micros(f.After.Time); wholeMicros(f.After.Time) {
			add("(at > ? OR (at = ? AND seq > ?))", at, at, f.After.Seq)
		} else {
			add("at >= ?", boundMicros(f.After.Time))
		}
	}
	if !f.Before.IsZero() {
		if at := micros(f.Before.Time); wholeMicros(f.Before.Time) {
			add("(at < ? OR (at = ? AND seq < ?))", at, at, f.Before.Seq)
		} else {
			add("at < ?", boundMicros(f.Before.Time))
		}
	}
	if f.Newest {
		b.WriteString(" ORDER BY at DESC, seq DESC")
	} else {
		b.WriteString(" ORDER BY at, seq")
	}
	if f.Limit > 0 {
		b.WriteString(" LIMIT ?")
		args = append(args, f.Limit)
	}
	return b.String(), args
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// AuditCheckpoint is the last id follow delivered under name.
func (s *Store) AuditCheckpoint(ctx context.Context, name string) (string, error) {
	var id string
	err := s.db.QueryRow(`SELECT id FROM audit_checkpoints WHERE name = ?`, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("the audit checkpoint %q could not be read: %w", name, err)
	}
	return id, nil
}

// SaveAuditCheckpoint records id as delivered under name.
func (s *Store) SaveAuditCheckpoint(ctx context.Context, name, id string) error {
	_, err := s.db.Exec(`INSERT INTO audit_checkpoints (name, id, updated_at) VALUES (?, ?, ?)
ON CONFLICT (name) DO UPDATE SET id = excluded.id, updated_at = excluded.updated_at`, name, id, s.now().UnixMilli())
	if err != nil {
		return fmt.Errorf("the audit checkpoint %q could not be saved: %w", name, err)
	}
	return nil
}
