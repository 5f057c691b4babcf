package store

import (
	"database/sql"
	"fmt"
	"time"
)

// UpdateBudget is the budget ledger shared by every vaultdeck process on the
// machine (the api package's Ledger), in one immediate transaction: BEGIN
// IMMEDIATE takes the write lock before the read, so two processes reserving
// at once are serialised and never both see the last free slot. Inside it,
// clock is read once (after the lock is taken, so no other process can have
// written a later send since), the ledger is cleared of what it cannot hold
// (see below), sends older than window are pruned, the bucket's sends
// (oldest first) and hold are read, update says what to add at that now, and
// it is written.
//
// The ledger trusts no time from the future. Every row was written by a
// process of this machine at its own now, so a row after now means the clock
// was set back (an NTP step, a restored VM snapshot) or a value no bound
// checked (an older vaultdeck, a hostile Retry-After). Left alone, such rows
// held every process for as long as the clock had jumped (hours) or the
// value said (decades). So, for every bucket:
//   - a send more than window ahead of now is discarded; one less than that
//     ahead is counted as sent now, so it costs at most one window;
//   - a hold more than maxHold ahead of now is discarded;
//   - what update adds is never written later than now (sends) or now plus
//     maxHold (a hold).
//
// ahead is how far ahead of now the furthest row so cleared was (0: none),
// for the caller to say once; a later transaction finds nothing left to say.
func (s *Store) UpdateBudget(bucket string, clock func() time.Time, window, maxHold time.Duration,
	update func(now time.Time, sent []time.Time, heldUntil time.Time) (add []time.Time, holdUntil time.Time)) (ahead time.Duration, err error) {
	err = s.inTxOnce(func(tx *sql.Tx) error {
		now := clock()
		var err error
		if ahead, err = clearFuture(tx, now, window, maxHold); err != nil {
			return err
		}
		// Pruning every bucket costs one indexed delete, and keeps the table
		// at one window of requests whatever buckets come and go.
		cut := now.Add(-window).UnixMilli()
		if _, err := tx.Exec(`DELETE FROM budget_sends WHERE sent_at <= ?`, cut); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM budget_holds WHERE until <= ?`, now.UnixMilli()); err != nil {
			return err
		}
		sent, held, err := readBucket(tx, bucket)
		if err != nil {
			return err
		}
		add, hold := update(now, sent, held)
		for _, t := range add {
			if t.After(now) {
				t = now
			}
			if _, err := tx.Exec(`INSERT INTO budget_sends (bucket, sent_at) VALUES (?, ?)`, bucket, t.UnixMilli()); err != nil {
				return err
			}
		}
		if limit := now.Add(maxHold); hold.After(limit) {
			hold = limit
		}
		if hold.After(held) && hold.After(now) {
			if _, err := tx.Exec(`INSERT INTO budget_holds (bucket, until) VALUES (?, ?)
ON CONFLICT (bucket) DO UPDATE SET until = max(until, excluded.until)`, bucket, hold.UnixMilli()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("the budget ledger could not be updated: %w", err)
	}
	return ahead, nil
}

// clearFuture applies UpdateBudget's rules for rows dated after now, in every
// bucket. The common case, nothing ahead, costs two indexed lookups.
func clearFuture(tx *sql.Tx, now time.Time, window, maxHold time.Duration) (time.Duration, error) {
	ms := now.UnixMilli()
	var lastSend, lastHold sql.NullInt64
	if err := tx.QueryRow(`SELECT max(sent_at) FROM budget_sends`).Scan(&lastSend); err != nil {
		return 0, err
	}
	if err := tx.QueryRow(`SELECT max(until) FROM budget_holds`).Scan(&lastHold); err != nil {
		return 0, err
	}
	var ahead time.Duration
	if lastSend.Valid && lastSend.Int64 > ms {
		ahead = aheadOf(lastSend.Int64, ms)
		if _, err := tx.Exec(`DELETE FROM budget_sends WHERE sent_at > ?`, now.Add(window).UnixMilli()); err != nil {
			return 0, err
		}
		if _, err := tx.Exec(`UPDATE budget_sends SET sent_at = ? WHERE sent_at > ?`, ms, ms); err != nil {
			return 0, err
		}
	}
	if limit := now.Add(maxHold).UnixMilli(); lastHold.Valid && lastHold.Int64 > limit {
		ahead = max(ahead, aheadOf(lastHold.Int64, ms))
		if _, err := tx.Exec(`DELETE FROM budget_holds WHERE until > ?`, limit); err != nil {
			return 0, err
		}
	}
	return ahead, nil
}

// aheadOf is how far the stored millisecond t is after now, without
// overflowing for any stored value (a hold in the year 292,277,026 is as
// valid an int64 as any).
func aheadOf(t, now int64) time.Duration {
	return time.UnixMilli(t).Sub(time.UnixMilli(now)) // Sub saturates
}

// readBucket is a bucket's sends, oldest first, and its hold (zero: none).
func readBucket(tx *sql.Tx, bucket string) ([]time.Time, time.Time, error) {
	rows, err := tx.Query(`SELECT sent_at FROM budget_sends WHERE bucket = ? ORDER BY sent_at`, bucket)
	if err != nil {
		return nil, time.Time{}, err
	}
	var sent []time.Time
	for rows.Next() {
		var ms int64
		if err := rows.Scan(&ms); err != nil {
			rows.Close()
			return nil, time.Time{}, err
		}
		sent = append(sent, time.UnixMilli(ms))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, time.Time{}, err
	}
	var held time.Time
	var until int64
	switch err := tx.QueryRow(`SELECT until FROM budget_holds WHERE bucket = ?`, bucket).Scan(&until); err {
	case nil:
		held = time.UnixMilli(until)
	case sql.ErrNoRows:
	default:
		return nil, time.Time{}, err
	}
	return sent, held, nil
}
