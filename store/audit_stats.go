package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// What the audit statistics read of the mirror (api/audit's stats): the
// columns only, never the JSON, so a week of a busy workspace is a scan of
// small rows.

// AuditLogs are the keys of the logs the mirror holds whose key begins
// with prefix (api/audit.LogKey's base URL and "|"), so a reader of the
// mirror can find its log without asking the service who it is.
func (s *Store) AuditLogs(ctx context.Context, prefix string) ([]string, error) {
	db, err := s.db.wait()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT key FROM audit_logs WHERE substr(key, 1, ?) = ? ORDER BY key`, len(prefix), prefix)
	if err != nil {
		return nil, fmt.Errorf("the audit mirror could not be read: %w", err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("the audit mirror could not be read: %w", err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("the audit mirror could not be read: %w", err)
	}
	return keys, nil
}

// AuditFacts hands fn the entries of log in [since, until) in the mirror's
// order (time, then Seq), without ID and Raw. Strings repeat a great deal (a few
// hundred users, a few dozen types), so each distinct one is kept once:
// a million entries allocate their names once, not a million times.
func (s *Store) AuditFacts(ctx context.Context, log string, since, until time.Time, fn func(AuditEntry) error) error {
	db, err := s.db.wait()
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT seq, at, type, user, ip FROM audit_entries
WHERE log = (SELECT id FROM audit_logs WHERE key = ?) AND at >= ? AND at < ? ORDER BY at, seq`, log, micros(since), micros(until))
	if err != nil {
		return fmt.Errorf("the audit mirror could not be read: %w", err)
	}
	defer rows.Close()
	names := map[string]string{}
	intern := func(b []byte) string {
		if s, ok := names[string(b)]; ok {
			return s
		}
		s := strings.Clone(string(b))
		if len(names) < maxInterned {
			names[s] = s
		}
		return s
	}
	var typ, user, ip []byte
	for rows.Next() {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&e.Seq, &at, &typ, &user, &ip); err != nil {
			return fmt.Errorf("the audit mirror could not be read: %w", err)
		}
		e.Time, e.Type, e.User, e.IP = fromMicros(at), intern(typ), intern(user), intern(ip)
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("the audit mirror could not be read: %w", err)
	}
	return nil
}

// maxInterned bounds the names AuditFacts keeps: a log where every entry
// has its own address must not grow the table without end.
const maxInterned = 100_000
