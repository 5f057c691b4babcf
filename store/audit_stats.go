package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// What the audit statistics (api/audit's stats) ask of the mirror: counts
// SQLite makes by walking an index in its own order, never by sorting the
// range's rows, so a week of a million entries hands Go a few hundred
// rows. Users and types are grouped ignoring case, as the columns compare
// (COLLATE NOCASE: ASCII letters), and named as the earliest entry of the
// group in the mirror spells them. The rules of what stands out stay in
// api/audit; the store only counts.

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
		return nil, mirrorUnread(err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, mirrorUnread(err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, mirrorUnread(err)
	}
	return keys, nil
}

func mirrorUnread(err error) error { return fmt.Errorf("the audit mirror could not be read: %w", err) }

// auditLogID is log's row id; ok is false when the mirror holds nothing of it.
func auditLogID(ctx context.Context, db *sql.DB, log string) (id int64, ok bool, err error) {
	err = db.QueryRowContext(ctx, `SELECT id FROM audit_logs WHERE key = ?`, log).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, mirrorUnread(err)
	}
	return id, true, nil
}

// AuditTypeCount is one log type (ignoring case) of a range.
type AuditTypeCount struct {
	Type    string
	Buckets []int // entries in each bucket, clipped to [since, until)
}

// Count is the type's entries in [since, until).
func (c AuditTypeCount) Count() int {
	n := 0
	for _, b := range c.Buckets {
		n += b
	}
	return n
}

// AuditTypeCounts are the log's types with entries in [from, until)
// (from <= since), each with its entries counted in n buckets of width by
// from first, each bucket clipped to [since, until). Each distinct type of
// the log is found by one step along the (log, type, at) index, and each
// bucket counted by a walk of that index: nothing is sorted, and the
// histogram, the types' tally and each type's own bars (a burst's) come
// from one walk of the range.
func (s *Store) AuditTypeCounts(ctx context.Context, log string, from, first time.Time, by time.Duration, n int, since, until time.Time) ([]AuditTypeCount, error) {
	var out []AuditTypeCount
	at := map[string]int{}
	err := s.auditRows(ctx, log, func(db *sql.DB, id int64) (*sql.Rows, error) {
		return db.QueryContext(ctx, auditTypeCountsQuery,
			id, micros(from), micros(first), by.Microseconds(), n, micros(since), micros(until))
	}, func(rows *sql.Rows) error {
		var typ string
		var i, c int
		if err := rows.Scan(&typ, &i, &c); err != nil {
			return mirrorUnread(err)
		}
		k, ok := at[typ]
		if !ok {
			k = len(out)
			at[typ] = k
			out = append(out, AuditTypeCount{Type: typ, Buckets: make([]int, n)})
		}
		if i >= 0 && i < n {
			out[k].Buckets[i] = c
		}
		return nil
	})
	return out, err
}

const auditTypeCountsQuery = `WITH RECURSIVE t(type) AS (
	SELECT (SELECT type FROM audit_entries WHERE log = ?1 ORDER BY type LIMIT 1)
	UNION ALL
	SELECT (SELECT type FROM audit_entries WHERE log = ?1 AND type > t.type ORDER BY type LIMIT 1) FROM t WHERE t.type IS NOT NULL
), b(i, s) AS (SELECT 0, ?3 UNION ALL SELECT i + 1, s + ?4 FROM b WHERE i + 1 < ?5)
SELECT t.type, b.i, (SELECT count(*) FROM audit_entries WHERE log = ?1 AND type = t.type AND at >= max(b.s, ?6) AND at < min(b.s + ?4, ?7))
FROM t, b WHERE t.type IS NOT NULL AND EXISTS (SELECT 1 FROM audit_entries WHERE log = ?1 AND type = t.type AND at >= ?2 AND at < ?7)`

// AuditPair is one user's use of one address over [from, until).
type AuditPair struct {
	User, IP string
	Before   int // entries in [from, since)
	InRange  int // entries in [since, until)
	OfType   int // of the type asked (ignoring case), in [since, until); InRange when none was
	// First is the pair's first entry at or after from; FirstLogin its
	// first of one of the login types named (zero: none).
	First, FirstLogin time.Time
}

// AuditPairs are the (user, address) pairs of the log with entries in
// [from, until). Each distinct user (ignoring case) is one step along the
// (log, user, at) index; their addresses come grouped in the order of
// the (log, user, ip, at, type) index, so nothing is sorted.
func (s *Store) AuditPairs(ctx context.Context, log string, from, since, until time.Time, typ string, logins []string) ([]AuditPair, error) {
	db, err := s.db.wait()
	if err != nil {
		return nil, err
	}
	id, ok, err := auditLogID(ctx, db, log)
	if err != nil || !ok {
		return nil, err
	}
	users, err := auditUsers(ctx, db, id, from, until)
	if err != nil {
		return nil, err
	}
	// count(*) and the range's count give the lookback's; without a type
	// asked, the range's count is the type's, and without login types
	// there is no first login: fewer aggregates for each of a million rows.
	args := []any{id, "", micros(since), micros(from), micros(until), typ}
	for _, l := range logins {
		args = append(args, l)
	}
	q := auditPairsQuery(typ != "", len(logins))
	var out []AuditPair
	for _, u := range users {
		args[1] = u
		rows, err := db.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, mirrorUnread(err)
		}
		for rows.Next() {
			p := AuditPair{User: u}
			var first int64
			var firstLogin sql.NullInt64
			var all int
			if err := rows.Scan(&p.IP, &all, &p.InRange, &p.OfType, &first, &firstLogin); err != nil {
				rows.Close()
				return nil, mirrorUnread(err)
			}
			p.Before = all - p.InRange
			if typ == "" {
				p.OfType = p.InRange
			}
			p.First = fromMicros(first)
			if firstLogin.Valid && firstLogin.Int64 != 0 {
				p.FirstLogin = fromMicros(firstLogin.Int64)
			}
			out = append(out, p)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, mirrorUnread(err)
		}
	}
	return out, nil
}

const auditUsersQuery = `WITH RECURSIVE u(user) AS (
	SELECT (SELECT user FROM audit_entries WHERE log = ?1 ORDER BY user, at LIMIT 1)
	UNION ALL
	SELECT (SELECT user FROM audit_entries WHERE log = ?1 AND user > u.user ORDER BY user, at LIMIT 1) FROM u WHERE u.user IS NOT NULL
)
SELECT user FROM u WHERE user IS NOT NULL AND EXISTS (SELECT 1 FROM audit_entries WHERE log = ?1 AND user = u.user AND at >= ?2 AND at < ?3)`

// auditPairsQuery is AuditPairs' query for one user (?2), with a type
// (?6) or not and logins login types (?7 on). count(*) and the range's
// count give the lookback's; without a type asked, the range's count is
// the type's, and without login types there is no first login: fewer
// aggregates for each of a million rows.
func auditPairsQuery(ofType bool, logins int) string {
	typ, login := "0", "0"
	if ofType {
		typ = "count(*) FILTER (WHERE at >= ?3 AND type = ?6)"
	}
	if logins > 0 {
		marks := make([]string, logins)
		for i := range marks {
			marks[i] = fmt.Sprintf("?%d", 7+i)
		}
		login = "min(at) FILTER (WHERE type IN (" + strings.Join(marks, ", ") + "))"
	}
	return `SELECT ip, count(*), count(*) FILTER (WHERE at >= ?3), ` + typ + `, min(at), ` + login + `
FROM audit_entries INDEXED BY audit_entries_user_ip WHERE log = ?1 AND user = ?2 AND at >= ?4 AND at < ?5 GROUP BY ip`
}

// auditUsers are the log's users (ignoring case) with an entry in [from, until).
func auditUsers(ctx context.Context, db *sql.DB, id int64, from, until time.Time) ([]string, error) {
	rows, err := db.QueryContext(ctx, auditUsersQuery,
		id, micros(from), micros(until))
	if err != nil {
		return nil, mirrorUnread(err)
	}
	defer rows.Close()
	var users []string
	for rows.Next() {
		var u string
		if err := rows.Scan(&u); err != nil {
			return nil, mirrorUnread(err)
		}
		users = append(users, u)
	}
	if err := rows.Err(); err != nil {
		return nil, mirrorUnread(err)
	}
	return users, nil
}

// AuditHours are the clock hours (UTC) in which user (ignoring case) has
// entries in [since, until), oldest first: one index step per hour found.
func (s *Store) AuditHours(ctx context.Context, log, user string, since, until time.Time) ([]time.Time, error) {
	var out []time.Time
	err := s.auditRows(ctx, log, func(db *sql.DB, id int64) (*sql.Rows, error) {
		return db.QueryContext(ctx, auditHoursQuery, id, user, micros(since), micros(until), time.Hour.Microseconds())
	}, func(rows *sql.Rows) error {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return mirrorUnread(err)
		}
		out = append(out, fromMicros(at))
		return nil
	})
	return out, err
}

const auditHoursQuery = `WITH RECURSIVE h(at) AS (
	SELECT (SELECT at FROM audit_entries WHERE log = ?1 AND user = ?2 AND at >= ?3 AND at < ?4 ORDER BY at LIMIT 1)
	UNION ALL
	SELECT (SELECT at FROM audit_entries WHERE log = ?1 AND user = ?2 AND at >= (h.at / ?5 + 1) * ?5 AND at < ?4 ORDER BY at LIMIT 1) FROM h WHERE h.at IS NOT NULL
)
SELECT at / ?5 * ?5 FROM h WHERE at IS NOT NULL`

// AuditFacts hands fn the entries of log that pass f's Since, Until, Type
// and User (the only fields it reads) in the mirror's order (time, then
// Seq), without ID and Raw: what the statistics read of the few entries
// behind a mark. Repeated strings are kept once.
func (s *Store) AuditFacts(ctx context.Context, log string, f AuditFilter, fn func(AuditEntry) error) error {
	q := `SELECT seq, at, type, user, ip FROM audit_entries WHERE log = ?1 AND at >= ?2 AND at < ?3`
	if f.Type != "" {
		q += ` AND type = ?4`
	}
	if f.User != "" {
		q += ` AND user = ?5`
	}
	q += ` ORDER BY at, seq`
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
	return s.auditRows(ctx, log, func(db *sql.DB, id int64) (*sql.Rows, error) {
		return db.QueryContext(ctx, q, id, boundMicros(f.Since), boundMicros(f.Until), f.Type, f.User)
	}, func(rows *sql.Rows) error {
		var e AuditEntry
		var at int64
		if err := rows.Scan(&e.Seq, &at, &typ, &user, &ip); err != nil {
			return mirrorUnread(err)
		}
		e.Time, e.Type, e.User, e.IP = fromMicros(at), intern(typ), intern(user), intern(ip)
		return fn(e)
	})
}

// maxInterned bounds the names AuditFacts keeps: a log where every entry
// has its own address must not grow the table without end.
const maxInterned = 100_000

// auditRows runs query against log's id and hands each row to each; a log
// the mirror does not hold has no rows. An error of each's is returned as
// it is (each wraps its own scan errors).
func (s *Store) auditRows(ctx context.Context, log string, query func(*sql.DB, int64) (*sql.Rows, error), each func(*sql.Rows) error) error {
	db, err := s.db.wait()
	if err != nil {
		return err
	}
	id, ok, err := auditLogID(ctx, db, log)
	if err != nil || !ok {
		return err
	}
	rows, err := query(db, id)
	if err != nil {
		return mirrorUnread(err)
	}
	defer rows.Close()
	var scanErr error
	for rows.Next() {
		if err := each(rows); err != nil {
			scanErr = err
			break
		}
	}
	if scanErr != nil {
		return scanErr
	}
	if err := rows.Err(); err != nil {
		return mirrorUnread(err)
	}
	return nil
}
