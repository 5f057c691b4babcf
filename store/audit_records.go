package store

import (
	"errors"
	"strings"
	"time"
)

// The audit mirror's record types. The job api/audit names the methods it
// calls as its Mirror interface over these (store/audit.go satisfies it),
// so the store never imports the job above it.

// AuditEntry is one audit entry as the mirror keeps it: the columns queries
// filter on, and the service's JSON byte for byte (Raw), which is what is
// written out (--json, follow's lines), so nothing the service said is lost
// or reformatted, unknown fields included.
type AuditEntry struct {
	// Seq is the mirror's order: the order the service listed the entries
	// in (ascending by id). Set by the mirror; 0 for entries not from it.
	Seq  int64
	ID   string
	Time time.Time // UTC; zero when the service's timestamp was unreadable
	Type string
	User string // the e-mail address the service names
	IP   string
	Raw  []byte
}

// AuditFilter selects entries. Every set field must match.
type AuditFilter struct {
	Since time.Time // entries at or after (zero: from the first)
	Until time.Time // entries before (zero: to the last)
	Type  string    // log type, exactly, ignoring case
	User  string    // the user's e-mail, exactly, ignoring case
	IP    string    // the address, exactly
	Grep  string    // text anywhere in the entry's JSON, ignoring case
	// After and Before page through the mirror (zero: unbounded): entries
	// strictly after After and strictly before Before in the mirror's order
	// (time, then Seq). Pass the first or last entry shown.
	After, Before AuditPosition
	Newest        bool // newest first (the console's order); else oldest first
	Limit         int  // at most this many (0: all)
}

// AuditPosition is a place in the mirror's order: by time, then by Seq (the
// service's order among entries of one instant).
type AuditPosition struct {
	Time time.Time
	Seq  int64
}

// At is e's position.
func (e AuditEntry) At() AuditPosition { return AuditPosition{Time: e.Time, Seq: e.Seq} }

// IsZero says the position is unset.
func (p AuditPosition) IsZero() bool { return p.Seq == 0 && p.Time.IsZero() }

// Match says whether e passes f's field filters (not the Seq bounds, which
// only the mirror knows, nor Limit). Query applies it to what the service
// sends; the mirror's SQL does the same, and the fake in the tests uses it.
func (f AuditFilter) Match(e AuditEntry) bool {
	switch {
	case !f.Since.IsZero() && e.Time.Before(f.Since):
		return false
	case !f.Until.IsZero() && !e.Time.Before(f.Until):
		return false
	case f.Type != "" && !strings.EqualFold(e.Type, f.Type):
		return false
	case f.User != "" && !strings.EqualFold(e.User, f.User):
		return false
	case f.IP != "" && e.IP != f.IP:
		return false
	case f.Grep != "" && !containsFold(e.Raw, f.Grep):
		return false
	}
	return true
}

// containsFold is a case-insensitive substring test (ASCII folding, which
// is what an address, an e-mail or a type needs; the mirror's SQL LIKE
// folds the same).
func containsFold(raw []byte, sub string) bool {
	return strings.Contains(strings.ToLower(string(raw)), strings.ToLower(sub))
}

// AuditMirrorState is how far a mirror reaches.
type AuditMirrorState struct {
	// Cursor is the id of the last entry the service listed to the mirror:
	// the next page is read after it. "" when nothing was ever synced.
	Cursor string
	// First and Last are the times of the oldest and newest entries held.
	First, Last time.Time
	// Entries is how many entries the mirror holds.
	Entries int64
	// CaughtUp is when a sync last read a short page: at that moment the
	// mirror held every entry the service had (zero: never).
	CaughtUp time.Time
	// Empty: the service said the log has no entry at all (as of CaughtUp).
	Empty bool
}

// Started says whether the mirror holds the log from its beginning: a
// sync always starts at the service's earliest entry.
func (s AuditMirrorState) Started() bool { return s.Cursor != "" || s.Empty }

// Covers says whether the mirror alone answers for entries before until:
// it began at the earliest entry, and it has entries past until (or was
// caught up after it). Entries at exactly Last may not all be in yet, so
// Last itself is not covered.
func (s AuditMirrorState) Covers(until time.Time) bool {
	if !s.Started() || until.IsZero() {
		return false
	}
	return until.Before(s.Last) || !until.After(s.CaughtUp)
}

// AuditMirrorPage is what one sync step writes, in one transaction: the entries the
// service listed after Prev, and the new cursor.
type AuditMirrorPage struct {
	Log      string       // which log (api/audit.LogKey)
	Prev     string       // the cursor the page was read after ("" for the earliest entry)
	Entries  []AuditEntry // in the service's order
	Cursor   string       // the last listed id (Prev when the page was empty)
	CaughtUp bool         // the page was short: nothing more to read now
	Empty    bool         // the service has no entry at all
	At       time.Time
}

// ErrAuditCursorMoved is returned (wrapped) by SaveAuditPage when the log's
// cursor is no longer Prev: another sync moved it. Nothing was written;
// read the state again and go on from there.
var ErrAuditCursorMoved = errors.New("another sync moved the mirror's cursor")
