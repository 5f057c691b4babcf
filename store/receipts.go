package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Receipt is the record of one batch matter deletion or restore.
type Receipt struct {
	ID         int64
	Action     string // "delete" or "restore"
	RestoreOf  int64  // the deletion a restore undid; 0 otherwise
	Profile    string
	Endpoint   string // the service's base URL
	FileName   string
	FileSHA256 string
	Pairs      int
	Status     string // running, complete, canceled, stopped
	Note       string // why it stopped
	// ActorOSUser, ActorKey: who ran it beyond the token's owner (the
	// local account, a serve session's key); "" for runs before schema 19.
	ActorOSUser, ActorKey string
	StartedAt, FinishedAt time.Time
	// Counts tallies the recorded items by result ("deleted", "error", ...).
	Counts map[string]int
	// Restored is what this machine's restores of a deletion did to its
	// pairs since, read with the receipt so that every view of it says
	// what is true now, not what was true when it finished.
	Restored Restored
}

// ReceiptItem is one pair's outcome, by the line it came from.
type ReceiptItem struct {
	Line               int
	ClientID, MatterID string
	Result, Code       string
	Detail             string
	Request            int
	// SentAt is when the pair went out in flight (set by the store when an
	// in_flight item is written; kept when the answer replaces it).
	SentAt time.Time
}

// Receipt statuses.
const (
	ReceiptRunning  = "running"
	ReceiptComplete = "complete"
	ReceiptCanceled = "canceled"
	ReceiptStopped  = "stopped"
)

// StartReceipt records a run before its first request, and returns its id.
func (s *Store) StartReceipt(r Receipt) (int64, error) {
	if r.Action != "delete" && r.Action != "restore" {
		return 0, fmt.Errorf("unknown receipt action %q", r.Action)
	}
	var restoreOf any
	if r.RestoreOf != 0 {
		restoreOf = r.RestoreOf
	}
	res, err := s.db.Exec(`
INSERT INTO matter_receipts (action, restore_of, profile, endpoint, file_name, file_sha256, pairs, started_at, actor_os_user, actor_key)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.Action, restoreOf, r.Profile, r.Endpoint, r.FileName, r.FileSHA256, r.Pairs, s.now().UnixMilli(),
		r.ActorOSUser, r.ActorKey)
	if err != nil {
		return 0, fmt.Errorf("the receipt could not be started: %w", err)
	}
	return res.LastInsertId()
}

// AddReceiptItems records the outcomes of one request in one transaction,
// so a receipt never holds half a request. A line already recorded (in
// flight, before its request was sent) takes its new outcome.
func (s *Store) AddReceiptItems(id int64, items []ReceiptItem) error {
	if len(items) == 0 {
		return nil
	}
	now := s.now().UnixMilli()
	return s.inTx(func(tx *sql.Tx) error { return insertItems(tx, id, items, now) })
}

// insertItems writes items; an in_flight item is stamped with now.
func insertItems(tx *sql.Tx, id int64, items []ReceiptItem, now int64) error {
	st, err := tx.Prepare(`
INSERT INTO matter_receipt_items (receipt_id, line, client_id, matter_id, result, code, detail, request, sent_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (receipt_id, line) DO UPDATE SET
	result = excluded.result, code = excluded.code, detail = excluded.detail, request = excluded.request
WHERE matter_receipt_items.result = 'in_flight'`)
	if err != nil {
		return fmt.Errorf("the receipt could not be written: %w", err)
	}
	defer st.Close()
	for _, it := range items {
		var sent int64
		if it.Result == "in_flight" {
			sent = now
		}
		res, err := st.Exec(id, it.Line, it.ClientID, it.MatterID, it.Result, it.Code, it.Detail, it.Request, sent)
		if err != nil {
			return fmt.Errorf("the receipt could not be written (line %d): %w", it.Line, err)
		}
		// only an in-flight line takes a new outcome; a final one is never
		// overwritten (the whole request's items are rolled back)
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return fmt.Errorf("the receipt could not be written: line %d already has its outcome", it.Line)
		}
	}
	return nil
}

// FinishReceipt closes a run with its status, adding the items of pairs
// that were never sent, in one transaction.
func (s *Store) FinishReceipt(id int64, status, note string, unsent []ReceiptItem) error {
	now := s.now().UnixMilli()
	return s.inTx(func(tx *sql.Tx) error {
		if err := insertItems(tx, id, unsent, now); err != nil {
			return err
		}
		res, err := tx.Exec(`UPDATE matter_receipts SET status = ?, note = ?, finished_at = ? WHERE id = ?`,
			status, note, s.now().UnixMilli(), id)
		if err != nil {
			return fmt.Errorf("the receipt could not be finished: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("receipt %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

const receiptCols = `id, action, coalesce(restore_of, 0), profile, endpoint, file_name, file_sha256, pairs, status, note, started_at, finished_at, actor_os_user, actor_key`

func scanReceipt(row interface{ Scan(...any) error }) (Receipt, error) {
	var r Receipt
	var started, finished int64
	err := row.Scan(&r.ID, &r.Action, &r.RestoreOf, &r.Profile, &r.Endpoint, &r.FileName, &r.FileSHA256, &r.Pairs,
		&r.Status, &r.Note, &started, &finished, &r.ActorOSUser, &r.ActorKey)
	r.StartedAt = time.UnixMilli(started)
	if finished != 0 {
		r.FinishedAt = time.UnixMilli(finished)
	}
	return r, err
}

// Receipts lists every receipt, newest first, with its counts.
func (s *Store) Receipts() ([]Receipt, error) {
	rows, err := s.db.Query(`SELECT ` + receiptCols + ` FROM matter_receipts ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("the receipts could not be listed: %w", err)
	}
	var out []Receipt
	for rows.Next() {
		r, err := scanReceipt(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("the receipts could not be listed: %w", err)
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("the receipts could not be listed: %w", err)
	}
	for i := range out {
		if out[i].Counts, err = s.receiptCounts(out[i].ID); err != nil {
			return nil, err
		}
		if out[i].Restored, err = s.restored(out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Receipt reads one receipt with its counts.
func (s *Store) Receipt(id int64) (Receipt, error) {
	r, err := scanReceipt(s.db.QueryRow(`SELECT `+receiptCols+` FROM matter_receipts WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("receipt %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("receipt %d could not be read: %w", id, err)
	}
	if r.Counts, err = s.receiptCounts(id); err != nil {
		return r, err
	}
	r.Restored, err = s.restored(r)
	return r, err
}

func (s *Store) receiptCounts(id int64) (map[string]int, error) {
	return s.countReceipt(id, `SELECT result, count(*) FROM matter_receipt_items WHERE receipt_id = ? GROUP BY result`)
}

// countReceipt runs a query of (name, count) rows about receipt id.
func (s *Store) countReceipt(id int64, query string) (map[string]int, error) {
	rows, err := s.db.Query(query, id)
	if err != nil {
		return nil, fmt.Errorf("receipt %d could not be counted: %w", id, err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var name string
		var n int
		if err := rows.Scan(&name, &n); err != nil {
			return nil, err
		}
		out[name] = n
	}
	return out, rows.Err()
}

// ReceiptItems calls fn for each item of a receipt in line order, streaming
// so that a million-pair receipt is never held in memory at once. result,
// when not empty, keeps only items with that result.
func (s *Store) ReceiptItems(id int64, result string, fn func(ReceiptItem) error) error {
	return s.ReceiptItemsWhere(id, result, "", fn)
}

// ReceiptItemsWhere is ReceiptItems that also keeps only one error code
// when code is not empty.
func (s *Store) ReceiptItemsWhere(id int64, result, code string, fn func(ReceiptItem) error) error {
	rows, err := s.db.Query(`
SELECT line, client_id, matter_id, result, code, detail, request, sent_at FROM matter_receipt_items
WHERE receipt_id = ? AND (? = '' OR result = ?) AND (? = '' OR code = ?) ORDER BY line`, id, result, result, code, code)
	if err != nil {
		return fmt.Errorf("receipt %d could not be read: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var it ReceiptItem
		var sent int64
		if err := rows.Scan(&it.Line, &it.ClientID, &it.MatterID, &it.Result, &it.Code, &it.Detail, &it.Request, &sent); err != nil {
			return fmt.Errorf("receipt %d could not be read: %w", id, err)
		}
		if sent != 0 {
			it.SentAt = time.UnixMilli(sent)
		}
		if err := fn(it); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ReceiptCodes counts a receipt's items by error code (items without one
// are left out).
func (s *Store) ReceiptCodes(id int64) (map[string]int, error) {
	return s.countReceipt(id, `SELECT code, count(*) FROM matter_receipt_items WHERE receipt_id = ? AND code != '' GROUP BY code`)
}
