// Package audit is the audit-log job: a local mirror of the workspace's log
// (Sync), questions answered from it or from the service (Query), and a
// follower that streams every new entry as JSON Lines for a SIEM (Follow).
// The CLI, the console and serve all use it; persistence is the small
// Mirror interface below, which the store satisfies (store/audit.go), so the
// job is tested with a fake and never imports the store.
//
// Reading the mirror (the console's audit view, evidence for a receipt):
//
//	st, _ := m.AuditState(ctx, log)             // log from LogOf: whoami costs no budget
//	m.AuditEntries(ctx, log, Filter{Newest: true, Limit: 200}, add)            // the newest page
//	m.AuditEntries(ctx, log, Filter{Before: oldest.At(), Newest: true, Limit: 200}, add) // scrolling back
//	m.AuditEntries(ctx, log, Filter{Since: t, Limit: 200}, add)                // a jump to a time
//	m.AuditEntries(ctx, log, Filter{User: u, Type: typ, Since: a, Until: b}, add) // evidence
//
// Time, type, user and address are answered from indexes (under a
// millisecond for a page, 18 ms for all of one user's 4,500 entries, on a
// million: BENCHMARKS.md); Grep reads every entry in range (0.7 s for a
// million), so narrow it with the others. st.Covers(t) says
// whether the mirror alone holds everything before t; Job.Query combines
// the mirror with the service where it does not, and says which answered.
package audit

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Entry is one audit entry as the mirror keeps it: the columns queries
// filter on, and the service's JSON byte for byte (Raw), which is what is
// written out (--json, follow's lines), so nothing the service said is lost
// or reformatted, unknown fields included.
type Entry struct {
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

// EntryOf converts an api listing item.
func EntryOf(it api.Item[api.AuditEntry]) Entry {
	return Entry{ID: it.Value.ID, Time: it.Value.Timestamp.Time, Type: string(it.Value.Type),
		User: it.Value.User, IP: it.Value.IP, Raw: it.JSON}
}

// Filter selects entries. Every set field must match.
type Filter struct {
	Since time.Time // entries at or after (zero: from the first)
	Until time.Time // entries before (zero: to the last)
	Type  string    // log type, exactly, ignoring case
	User  string    // the user's e-mail, exactly, ignoring case
	IP    string    // the address, exactly
	Grep  string    // text anywhere in the entry's JSON, ignoring case
	// After and Before page through the mirror (zero: unbounded): entries
	// strictly after After and strictly before Before in the mirror's order
	// (time, then Seq). Pass the first or last entry shown.
	After, Before Position
	Newest        bool // newest first (the console's order); else oldest first
	Limit         int  // at most this many (0: all)
}

// Position is a place in the mirror's order: by time, then by Seq (the
// service's order among entries of one instant).
type Position struct {
	Time time.Time
	Seq  int64
}

// At is e's position.
func (e Entry) At() Position { return Position{Time: e.Time, Seq: e.Seq} }

// IsZero says the position is unset.
func (p Position) IsZero() bool { return p.Seq == 0 && p.Time.IsZero() }

// Match says whether e passes f's field filters (not the Seq bounds, which
// only the mirror knows, nor Limit). Query applies it to what the service
// sends; the mirror's SQL does the same, and the fake in the tests uses it.
func (f Filter) Match(e Entry) bool {
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

// State is how far a mirror reaches.
type State struct {
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
func (s State) Started() bool { return s.Cursor != "" || s.Empty }

// Covers says whether the mirror alone answers for entries before until:
// it began at the earliest entry, and it has entries past until (or was
// caught up after it). Entries at exactly Last may not all be in yet, so
// Last itself is not covered.
func (s State) Covers(until time.Time) bool {
	if !s.Started() || until.IsZero() {
		return false
	}
	return until.Before(s.Last) || !until.After(s.CaughtUp)
}

// Page is what one sync step writes, in one transaction: the entries the
// service listed after Prev, and the new cursor.
type Page struct {
	Log      string  // which log (LogKey)
	Prev     string  // the cursor the page was read after ("" for the earliest entry)
	Entries  []Entry // in the service's order
	Cursor   string  // the last listed id (Prev when the page was empty)
	CaughtUp bool    // the page was short: nothing more to read now
	Empty    bool    // the service has no entry at all
	At       time.Time
}

// ErrCursorMoved is returned (wrapped) by Mirror.SavePage when the log's
// cursor is no longer Prev: another sync moved it. Nothing was written;
// read the state again and go on from there.
var ErrCursorMoved = errors.New("another sync moved the mirror's cursor")

// Mirror is the persistence the job needs. store.Store satisfies it.
type Mirror interface {
	// AuditState is the mirror's reach for log (zero State when none).
	AuditState(ctx context.Context, log string) (State, error)
	// SaveAuditPage stores p's entries (an id already held is left as it
	// is) and moves the cursor, atomically; ErrCursorMoved when the cursor
	// is not p.Prev.
	SaveAuditPage(ctx context.Context, p Page) error
	// AuditEntries hands the entries of log that pass f to fn, in f's
	// order, until fn returns an error (returned as is).
	AuditEntries(ctx context.Context, log string, f Filter, fn func(Entry) error) error
	// AuditCheckpoint is the last id delivered under name ("" when none).
	AuditCheckpoint(ctx context.Context, name string) (string, error)
	// SaveAuditCheckpoint records id as delivered under name.
	SaveAuditCheckpoint(ctx context.Context, name, id string) error
}

// LogKey names a workspace's log in the mirror: the service's base URL and
// the workspace id from whoami, so two profiles of one workspace share a
// mirror and two workspaces never mix.
func LogKey(base, workspaceID string) string { return base + "|" + workspaceID }

// Service is what the job asks of the service; *api.Client satisfies it.
type Service interface {
	WhoAmI(ctx context.Context) (*api.WhoAmI, error)
	AuditEarliestItem(ctx context.Context, logType string) (*api.Item[api.AuditEntry], error)
	AuditLatestItem(ctx context.Context, logType string) (*api.Item[api.AuditEntry], error)
	AuditSearchItem(ctx context.Context, t time.Time, logType string) (*api.Item[api.AuditEntry], error)
	AuditPage(ctx context.Context, from string, take int, logType string) (api.AuditPage, error)
	Budget(cat api.Category) api.BudgetStatus
	Base() string
}
