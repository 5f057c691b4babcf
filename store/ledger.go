package store

import (
	"database/sql"
	"fmt"
	"time"
)

// UpdateBudget is the budget ledger shared by every vaultdeck process on the
// machine (the api package's Ledger): it prunes sends older than since, reads
// the bucket's sends (oldest first) and hold, asks update what to add, and
// writes it, in one immediate transaction. BEGIN IMMEDIATE takes the write
// lock before the read, so two processes reserving at once are serialised
// and never both see the last free slot.
func (s *Store) UpdateBudget(bucket string, since time.Time,
	update func(sent []time.Time, heldUntil time.Time) (add []time.Time, holdUntil time.Time)) error {
	err := s.inTx(func(tx *sql.Tx) error {
		cut := since.UnixMilli()
		// Pruning every bucket costs one indexed delete, and keeps the table
		// at one minute of requests whatever buckets come and go.
		if _, err := tx.Exec(`DELETE FROM budget_sends WHERE sent_at <= ?`, cut); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM budget_holds WHERE until <= ?`, cut); err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT sent_at FROM budget_sends WHERE bucket = ? ORDER BY sent_at`, bucket)
		if err != nil {
			return err
		}
		var sent []time.Time
		for rows.Next() {
			var ms int64
			if err := rows.Scan(&ms); err != nil {
				rows.Close()
				return err
			}
			sent = append(sent, time.UnixMilli(ms))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		var held time.Time
		var until int64
		switch err := tx.QueryRow(`SELECT until FROM budget_holds WHERE bucket = ?`, bucket).Scan(&until); err {
		case nil:
			held = time.UnixMilli(until)
		case sql.ErrNoRows:
		default:
			return err
		}
		add, hold := update(sent, held)
		for _, t := range add {
			if _, err := tx.Exec(`INSERT INTO budget_sends (bucket, sent_at) VALUES (?, ?)`, bucket, t.UnixMilli()); err != nil {
				return err
			}
		}
		if hold.After(held) {
			if _, err := tx.Exec(`INSERT INTO budget_holds (bucket, until) VALUES (?, ?)
ON CONFLICT (bucket) DO UPDATE SET until = max(until, excluded.until)`, bucket, hold.UnixMilli()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("the budget ledger could not be updated: %w", err)
	}
	return nil
}
