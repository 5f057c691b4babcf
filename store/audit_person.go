package store

import (
	"context"
	"fmt"
)

// AuditUserFacts hands fn every entry of user (ignoring case) in log,
// without ID and Raw, in the order of the index it reads alone
// (audit_entries_user_ip: by address, then time): the person report
// (api/person) reads a person's whole history this way, a few thousand
// rows of a million-entry mirror, without a lookup of each row in the
// table (which cost 15 µs a row). Callers order what they need.
func (s *Store) AuditUserFacts(ctx context.Context, log, user string, fn func(AuditEntry) error) error {
	db, err := s.db.wait()
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT seq, at, type, ip FROM audit_entries INDEXED BY audit_entries_user_ip
WHERE log = (SELECT id FROM audit_logs WHERE key = ?) AND user = ?`, log, user)
	if err != nil {
		return fmt.Errorf("the audit mirror could not be read: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		e := AuditEntry{User: user}
		var at int64
		if err := rows.Scan(&e.Seq, &at, &e.Type, &e.IP); err != nil {
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
