// Package audit is the audit-log job: a local mirror of the workspace's log
// (Sync), questions answered from it or from the service (Query), and a
// follower that streams every new entry as JSON Lines for a SIEM (Follow).
// The CLI, the console and serve all use it; persistence is the small
// Mirror interface below: the store methods the job calls, over store's
// record types (store.AuditEntry, AuditFilter, AuditMirrorState,
// AuditMirrorPage), which *store.Store satisfies (store/audit.go), so the
// job is tested with a fake and the store never imports the job.
//
// Reading the mirror (the console's audit view, evidence for a receipt):
//
//	st, _ := m.AuditState(ctx, log)             // log from LogOf: whoami costs no budget
//	m.AuditEntries(ctx, log, store.AuditFilter{Newest: true, Limit: 200}, add)            // the newest page
//	m.AuditEntries(ctx, log, store.AuditFilter{Before: oldest.At(), Newest: true, Limit: 200}, add) // scrolling back
//	m.AuditEntries(ctx, log, store.AuditFilter{Since: t, Limit: 200}, add)                // a jump to a time
//	m.AuditEntries(ctx, log, store.AuditFilter{User: u, Type: typ, Since: a, Until: b}, add) // evidence
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
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// EntryOf converts an api listing item.
func EntryOf(it api.Item[api.AuditEntry]) store.AuditEntry {
	return store.AuditEntry{ID: it.Value.ID, Time: it.Value.Timestamp.Time, Type: string(it.Value.Type),
		User: it.Value.User, IP: it.Value.IP, Raw: it.JSON}
}

var _ Mirror = (*store.Store)(nil)

// Mirror is the persistence the job needs: the store methods it calls,
// over store's record types. *store.Store satisfies it.
type Mirror interface {
	// AuditState is the mirror's reach for log (zero store.AuditMirrorState when none).
	AuditState(ctx context.Context, log string) (store.AuditMirrorState, error)
	// SaveAuditPage stores p's entries (an id already held is left as it
	// is) and moves the cursor, atomically; store.ErrAuditCursorMoved when the cursor
	// is not p.Prev.
	SaveAuditPage(ctx context.Context, p store.AuditMirrorPage) error
	// AuditEntries hands the entries of log that pass f to fn, in f's
	// order, until fn returns an error (returned as is).
	AuditEntries(ctx context.Context, log string, f store.AuditFilter, fn func(store.AuditEntry) error) error
	// AuditCheckpoint is the last id delivered under name ("" when none).
	AuditCheckpoint(ctx context.Context, name string) (string, error)
	// SaveAuditCheckpoint records id as delivered under name.
	SaveAuditCheckpoint(ctx context.Context, name, id string) error
	// Unchanged says when the database's files are no longer the ones the
	// store opened (store.ErrChanged): asked before each request, so no
	// page is read whose record (mirror, checkpoint) would be lost.
	Unchanged() error
	// Check proves the file whole before a sync or a follow writes into
	// it (store.ErrDamaged): SQLite notices a damaged page only when a
	// statement reads it, so the writes that miss it would go on.
	Check() error
}

// checked is ctx with the mirror's Unchanged asked before each request.
func (j *Job) checked(ctx context.Context) context.Context {
	if j.Mirror == nil {
		return ctx
	}
	return api.WithCheckBeforeSending(ctx, j.Mirror.Unchanged)
}

// LogKey names a workspace's log in the mirror: the service's base URL and
// the workspace id from whoami, so two profiles of one workspace share a
// mirror and two workspaces never mix.
func LogKey(base, workspaceID string) string { return base + "|" + workspaceID }

// Service is what the job asks of the service; *api.Client satisfies it.
type Service interface {
	WhoAmI(ctx context.Context) (*api.WhoAmI, error)
	AuditEarliest(ctx context.Context, logType string) (*api.Item[api.AuditEntry], error)
	AuditLatest(ctx context.Context, logType string) (*api.Item[api.AuditEntry], error)
	AuditSearch(ctx context.Context, t time.Time, logType string) (*api.Item[api.AuditEntry], error)
	AuditPage(ctx context.Context, from string, take int, logType string) (api.AuditPage, error)
	Budget(cat api.Category) api.BudgetStatus
	Base() string
}
