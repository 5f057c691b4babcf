package store

// What the restores of a deletion did since, read with its receipt (see
// Receipt.Restored), and what later deletions then did to those pairs.

import (
	"fmt"
	"strings"
	"unicode"
)

// Restored is what the restores of one deletion receipt did.
type Restored struct {
	By []int64 // the restore receipts of this deletion, oldest first
	// Lines are its lines a restore brought back or found present
	// (restored, created, unchanged; already_restored repeats a line).
	Lines int
	// InFlight are lines a restore sent without recording the answer,
	// which no other restore settled: they may be back.
	InFlight int
	// Remaining are lines the deletion deleted that no restore settled
	// or has in flight.
	Remaining int
	// Again are lines of Lines that a later deletion (a receipt started
	// after the restore that brought them back) answered "deleted" for:
	// they are gone again. AgainBy names those deletions.
	Again   int
	AgainBy []int64
}

// restored reads what the restores of deletion r did; zero for a restore
// or a deletion never restored. The result names are the matter job's
// (api/matters), kept here as the store already keeps 'in_flight'.
func (s *Store) restored(r Receipt) (Restored, error) {
	var out Restored
	if r.Action != "delete" {
		return out, nil
	}
	rows, err := s.db.Query(`SELECT id FROM matter_receipts WHERE restore_of = ? ORDER BY id`, r.ID)
	if err != nil {
		return out, fmt.Errorf("the restores of receipt %d could not be read: %w", r.ID, err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return out, fmt.Errorf("the restores of receipt %d could not be read: %w", r.ID, err)
		}
		out.By = append(out.By, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(out.By) == 0 {
		return out, err
	}
	err = s.db.QueryRow(`
WITH mine AS (SELECT receipt_id, line, result FROM matter_receipt_items
              WHERE receipt_id IN (SELECT id FROM matter_receipts WHERE restore_of = ?1)),
back AS (SELECT DISTINCT line FROM mine WHERE result IN ('restored', 'created', 'unchanged', 'already_restored')),
fly AS (SELECT DISTINCT line FROM mine WHERE result = 'in_flight' AND line NOT IN back)
SELECT (SELECT count(*) FROM back), (SELECT count(*) FROM fly),
       (SELECT count(*) FROM matter_receipt_items WHERE receipt_id = ?1 AND result = 'deleted'
        AND line NOT IN back AND line NOT IN fly)`,
		r.ID).Scan(&out.Lines, &out.InFlight, &out.Remaining)
	if err != nil {
		return out, fmt.Errorf("the restores of receipt %d could not be counted: %w", r.ID, err)
	}
	if out.Lines > 0 {
		err = s.deletedAgain(r.ID, &out)
	}
	return out, err
}

// deletedAgain counts the lines restores of deletion id brought back that
// a deletion started after that restore deleted again (the same pair,
// trimmed as the service trims it), and names those deletions. Nothing is
// read when no deletion came after the first restore. The restored pairs
// are MATERIALIZED: left inline, SQLite scanned every deleted line first
// and looked the restored one up for each, which grew with the square of
// the receipt (BenchmarkReceiptAfterRestoreAndRedelete).
func (s *Store) deletedAgain(id int64, out *Restored) error {
	var later int
	if err := s.db.QueryRow(`SELECT count(*) FROM matter_receipts WHERE action = 'delete' AND id > ?`, out.By[0]).Scan(&later); err != nil || later == 0 {
		return err
	}
	rows, err := s.db.Query(`
WITH back AS (SELECT line, min(receipt_id) AS rid FROM matter_receipt_items
              WHERE receipt_id IN (SELECT id FROM matter_receipts WHERE restore_of = ?1)
                AND result IN ('restored', 'created', 'unchanged', 'already_restored') GROUP BY line),
pairs AS MATERIALIZED (SELECT b.line, b.rid, trim(o.client_id, ?2) AS c, trim(o.matter_id, ?2) AS m
          FROM back b JOIN matter_receipt_items o ON o.receipt_id = ?1 AND o.line = b.line)
SELECT p.line, d.receipt_id FROM pairs p
JOIN matter_receipt_items d ON d.result = 'deleted' AND d.receipt_id > p.rid
     AND trim(d.client_id, ?2) = p.c AND trim(d.matter_id, ?2) = p.m
JOIN matter_receipts r ON r.id = d.receipt_id AND r.action = 'delete'
ORDER BY d.receipt_id`, id, whiteSpace)
	if err != nil {
		return fmt.Errorf("the deletions after receipt %d's restores could not be read: %w", id, err)
	}
	defer rows.Close()
	lines := map[int]bool{}
	for rows.Next() {
		var line int
		var by int64
		if err := rows.Scan(&line, &by); err != nil {
			return fmt.Errorf("the deletions after receipt %d's restores could not be read: %w", id, err)
		}
		lines[line] = true
		if n := len(out.AgainBy); n == 0 || out.AgainBy[n-1] != by {
			out.AgainBy = append(out.AgainBy, by)
		}
	}
	out.Again = len(lines)
	return rows.Err()
}

// whiteSpace is every character Unicode calls white space, the set Go's
// strings.TrimSpace trims (and so the matter job's pair keys, and the
// service's trimming as the simulator has it): SQLite's trim(X, Y) takes
// the characters to trim as Y.
var whiteSpace = func() string {
	var b strings.Builder
	for _, r16 := range unicode.White_Space.R16 {
		for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
			b.WriteRune(r)
		}
	}
	for _, r32 := range unicode.White_Space.R32 {
		for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
			b.WriteRune(r)
		}
	}
	return b.String()
}()
