package store

// The record of writes made through `vaultdeck serve` (schemas 17-18, issue
// 45): a firm must be able to say which person deleted a client's project
// when every admin's session uses one shared token. A row is written before
// its request goes (so nothing is sent unrecorded), settled once with the
// service's answer, and given its audit evidence once. The schema's
// triggers refuse any other change and any deletion.

import (
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// HubAction is one write made through serve.
type HubAction struct {
	ID int64
	At time.Time // before the request went
	// Actor is how the record names who did it: the key's fingerprint and
	// comment, or the certificate's principal and key ID.
	Actor                      string
	KeySHA256, KeyComment      string
	Principal, KeyID           string // certificates only
	OSUser, Remote             string // the account serve runs as; the client's address
	Profile, TokenUser         string // the bound profile ("login": the session's own token); whoami's e-mail
	Method, Path, What, Target string
	Status                     int    // the HTTP status; 0: no answer
	Outcome                    string // sent, done, refused, failed, unknown
	Detail                     string
	DoneAt                     time.Time
	AuditType, AuditEntries    string // AuditEntries: the service's entry ids, space-separated
	AuditNote                  string
}

// Hub action outcomes.
const (
	HubSent    = "sent"    // recorded, request going: no answer yet
	HubDone    = "done"    // the service accepted it
	HubRefused = "refused" // the service refused it (4xx): nothing changed
	HubFailed  = "failed"  // the service failed it (5xx)
	HubUnknown = "unknown" // no answer: it may have happened
)

// RecordHubAction writes a before its request goes and returns its id.
func (s *Store) RecordHubAction(a HubAction) (int64, error) {
	if a.Actor == "" || a.Method == "" || a.Path == "" || a.What == "" {
		return 0, fmt.Errorf("a hub action needs an actor, a method, a path and what it does")
	}
	var id int64
	err := s.inTx(func(tx *sql.Tx) error {
		res, err := tx.Exec(`
INSERT INTO hub_actions (at, actor, key_sha256, key_comment, principal, key_id, os_user, remote, profile, token_user,
	method, path, what, target, audit_type)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, s.now().UnixMilli(), a.Actor, a.KeySHA256, a.KeyComment, a.Principal,
			a.KeyID, a.OSUser, a.Remote, a.Profile, a.TokenUser, a.Method, a.Path, a.What, a.Target, a.AuditType)
		if err != nil {
			return fmt.Errorf("the write could not be recorded, so it was not sent: %w", err)
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, err
}

// SettleHubAction writes the service's answer to action id, once.
func (s *Store) SettleHubAction(id int64, status int, outcome, detail string) error {
	return s.inTx(func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE hub_actions SET status = ?, outcome = ?, detail = ?, done_at = ? WHERE id = ? AND outcome = 'sent'`,
			status, outcome, detail, s.now().UnixMilli(), id)
		if err != nil {
			return fmt.Errorf("hub action %d: its outcome could not be recorded: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("hub action %d is not waiting for an answer", id)
		}
		return nil
	})
}

// HubActionEvidence writes the service's audit entries for action id,
// once; note says what they are (or why there are none).
func (s *Store) HubActionEvidence(id int64, entries []string, note string) error {
	if note == "" {
		return fmt.Errorf("hub action %d: evidence needs a note", id)
	}
	return s.inTx(func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE hub_actions SET audit_entries = ?, audit_note = ? WHERE id = ? AND audit_note = ''`,
			strings.Join(entries, " "), note, id)
		if err != nil {
			return fmt.Errorf("hub action %d: its evidence could not be recorded: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("hub action %d already has its evidence", id)
		}
		return nil
	})
}

const hubActionCols = `id, at, actor, key_sha256, key_comment, principal, key_id, os_user, remote, profile, token_user,
	method, path, what, target, status, outcome, detail, done_at, audit_type, audit_entries, audit_note`

// HubActions lists the record, oldest first, from since (zero: all).
func (s *Store) HubActions(since time.Time) ([]HubAction, error) {
	rows, err := s.db.Query(`SELECT `+hubActionCols+` FROM hub_actions WHERE at >= ? ORDER BY id`, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("the hub's record could not be read: %w", err)
	}
	defer rows.Close()
	var out []HubAction
	for rows.Next() {
		var a HubAction
		var at, done int64
		if err := rows.Scan(&a.ID, &at, &a.Actor, &a.KeySHA256, &a.KeyComment, &a.Principal, &a.KeyID, &a.OSUser, &a.Remote,
			&a.Profile, &a.TokenUser, &a.Method, &a.Path, &a.What, &a.Target, &a.Status, &a.Outcome, &a.Detail, &done,
			&a.AuditType, &a.AuditEntries, &a.AuditNote); err != nil {
			return nil, fmt.Errorf("the hub's record could not be read: %w", err)
		}
		a.At = time.UnixMilli(at).UTC()
		if done != 0 {
			a.DoneAt = time.UnixMilli(done).UTC()
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("the hub's record could not be read: %w", err)
	}
	return out, nil
}
