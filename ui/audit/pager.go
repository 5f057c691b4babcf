package audit

import (
	"github.com/vaultdeck/vaultdeck/api"
)

// pageSize is how many entries each AuditAfter call asks for. 200 keeps one
// page quick to decode and render while a few pages cover a working session;
// the audit budget (60/min) is not the constraint here, scrolling is.
const pageSize = 200

// nearEnd is how close (in rows) the cursor must come to the last loaded
// entry before the next page is fetched, so scrolling rarely waits.
const nearEnd = 20

// pager holds the loaded part of the audit log and decides when to fetch
// more. It is plain data: the view turns its decisions into tea.Cmds.
//
// The listing endpoint (GET /logs/audit?from=&take=) has no type filter, so
// when a type is set only the earliest call filters server-side (log_type);
// later pages are filtered here, and the cursor still advances over the
// unfiltered page so nothing is skipped or fetched twice.
type pager struct {
	logType string
	entries []api.AuditEntry // shown entries, filtered when logType is set
	lastID  string           // cursor: id of the last entry received, filtered or not
	started bool             // earliest has been fetched
	done    bool             // a short or empty page was received, or there are no entries
	empty   bool             // earliest returned 404: the log (of this type) is empty
	loading bool
	types   map[api.AuditType]struct{} // types observed, for cycling the filter
}

func newPager(logType string) *pager {
	return &pager{logType: logType, types: map[api.AuditType]struct{}{}}
}

// request describes the next fetch the view should make.
type request struct {
	Earliest bool   // AuditEarliest(LogType) rather than AuditAfter(From, pageSize)
	LogType  string // for Earliest
	From     string // for AuditAfter
}

// next returns the fetch to make when the cursor is at row cursor, or false
// when nothing should be fetched: one is already running, the log is
// exhausted, or the cursor is not near the end yet.
func (p *pager) next(cursor int) (request, bool) {
	if p.loading || p.done {
		return request{}, false
	}
	if !p.started {
		return request{Earliest: true, LogType: p.logType}, true
	}
	if cursor < len(p.entries)-nearEnd {
		return request{}, false
	}
	return request{From: p.lastID}, true
}

// begin marks a fetch as running (the in-flight guard).
func (p *pager) begin() { p.loading = true }

// fail ends a running fetch without data; what was loaded stays.
func (p *pager) fail() { p.loading = false }

// gotEarliest records the answer of AuditEarliest; e == nil means 404 (no
// entries at all, or none of this type), which is an empty state, not an error.
func (p *pager) gotEarliest(e *api.AuditEntry) {
	p.loading, p.started = false, true
	if e == nil {
		p.done, p.empty = true, true
		return
	}
	p.lastID = e.ID
	p.add(*e)
}

// gotPage records one AuditAfter page and reports how many entries were
// added to the view (fewer than received when a type filter is set).
func (p *pager) gotPage(page []api.AuditEntry) int {
	p.loading = false
	if len(page) < pageSize {
		p.done = true // the service returns up to take; short means the end
	}
	before := p.lastID
	added := 0
	for _, e := range page {
		if e.ID == "" {
			continue
		}
		p.lastID = e.ID
		p.types[e.Type] = struct{}{}
		if p.logType != "" && string(e.Type) != p.logType {
			continue
		}
		p.entries = append(p.entries, e)
		added++
	}
	if len(page) > 0 && p.lastID == before {
		// No usable id in a full page: asking again from the same cursor
		// would return the same page forever.
		p.done = true
	}
	return added
}

func (p *pager) add(e api.AuditEntry) {
	p.types[e.Type] = struct{}{}
	p.entries = append(p.entries, e)
}
