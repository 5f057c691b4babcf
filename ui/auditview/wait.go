package auditview

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
)

// A read of entries on a rate-limited workspace can take a minute (a jump
// searches stretches of log time and pages through them, one audit request
// a second at 60 a minute). The header says what the read is doing while
// it runs: which entries it reads (a search's position in the log, the
// page it has reached), how many requests it has made, and what it waits
// for and how long (the audit budget and when it refills, or a Retry-After),
// from the api client's wait observer and the service calls themselves,
// whatever walk api/audit takes.

// readWatch is what one read is doing: written by the read's goroutine,
// read by View.
type readWatch struct {
	what string // "jump to 2026-11-20 14:05"

	mu       sync.Mutex
	step     string // "searching from 11-20 13:05", "reading on from 11-20 13:40"
	reqs     int
	wait     *api.Wait
	budget   api.BudgetStatus
	budgetAt time.Time
}

type watchKey struct{}

// watching is ctx for a read that reports to w: the service calls (through
// traced) and the client's waits.
func watching(ctx context.Context, w *readWatch) context.Context {
	ctx = context.WithValue(ctx, watchKey{}, w)
	return api.WithWaitObserver(ctx, func(x api.Wait) {
		w.mu.Lock()
		w.wait = &x
		w.mu.Unlock()
	})
}

func watchOf(ctx context.Context) *readWatch {
	w, _ := ctx.Value(watchKey{}).(*readWatch)
	return w
}

// traced is the job's service seen by the view: each audit call tells the
// read's watch where it reads and what the budget holds after it.
type traced struct {
	audit.Service
	now func() time.Time // the view's clock, the client's too
}

// stampLayout is a position in the log, short enough for the header.
const stampLayout = "2006-01-02 15:04"

func (s traced) begin(ctx context.Context, step string) *readWatch {
	w := watchOf(ctx)
	if w != nil {
		w.mu.Lock()
		w.step, w.wait = step, nil
		w.mu.Unlock()
	}
	return w
}

func (s traced) end(w *readWatch, reached, now time.Time) {
	if w == nil {
		return
	}
	b := s.Budget(api.CategoryAudit)
	w.mu.Lock()
	w.reqs++
	w.wait = nil
	w.budget, w.budgetAt = b, now
	if !reached.IsZero() {
		w.step = "read up to " + reached.UTC().Format(stampLayout)
	}
	w.mu.Unlock()
}

func itemTime(it *api.Item[api.AuditEntry]) time.Time {
	if it == nil {
		return time.Time{}
	}
	return it.Value.Timestamp.Time
}

func (s traced) AuditSearch(ctx context.Context, t time.Time, logType string) (*api.Item[api.AuditEntry], error) {
	w := s.begin(ctx, "searching from "+t.UTC().Format(stampLayout))
	it, err := s.Service.AuditSearch(ctx, t, logType)
	s.end(w, itemTime(it), s.now())
	return it, err
}

func (s traced) AuditEarliest(ctx context.Context, logType string) (*api.Item[api.AuditEntry], error) {
	w := s.begin(ctx, "reading the log's earliest entry")
	it, err := s.Service.AuditEarliest(ctx, logType)
	s.end(w, itemTime(it), s.now())
	return it, err
}

func (s traced) AuditLatest(ctx context.Context, logType string) (*api.Item[api.AuditEntry], error) {
	w := s.begin(ctx, "reading the log's newest entry")
	it, err := s.Service.AuditLatest(ctx, logType)
	s.end(w, itemTime(it), s.now())
	return it, err
}

func (s traced) AuditPage(ctx context.Context, from string, take int, logType string) (api.AuditPage, error) {
	step := "paging on"
	if w := watchOf(ctx); w != nil {
		w.mu.Lock()
		if at, ok := strings.CutPrefix(w.step, "read up to "); ok {
			step = "paging on from " + at
		}
		w.mu.Unlock()
	}
	w := s.begin(ctx, step)
	p, err := s.Service.AuditPage(ctx, from, take, logType)
	var reached time.Time
	if n := len(p.Entries); n > 0 {
		reached = p.Entries[n-1].Value.Timestamp.Time
	}
	s.end(w, reached, s.now())
	return p, err
}

// text is the header's account of the read at now: what it reads, where
// it is, how many requests, and what it waits for and how long.
func (w *readWatch) text(now time.Time) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	parts := []string{w.what}
	if w.step != "" {
		parts = append(parts, w.step)
	}
	if w.reqs > 0 {
		parts = append(parts, plural.Count(w.reqs, "audit request", "audit requests"))
	}
	if x := w.wait; x != nil && x.Until.After(now) {
		left := max(int(x.Until.Sub(now).Seconds()+0.999), 1)
		switch {
		case x.Reason == api.WaitBudget && x.Held:
			parts = append(parts, fmt.Sprintf("waiting %ds for the audit budget (the service answered 429 to vaultdeck on this machine)", left))
		case x.Reason == api.WaitBudget:
			parts = append(parts, fmt.Sprintf("waiting %ds for the audit budget (%d a minute)", left, x.Limit))
		default:
			parts = append(parts, fmt.Sprintf("waiting %ds: %s", left, x.String()))
		}
	} else if b := w.budget; !b.Unlimited && b.Limit > 0 && b.Remaining == 0 && !w.budgetAt.IsZero() {
		if left := b.ResetIn - now.Sub(w.budgetAt); left > 0 {
			parts = append(parts, fmt.Sprintf("audit budget spent (%d a minute), refills in %ds", b.Limit, int(left.Seconds()+0.999)))
		}
	}
	return strings.Join(parts, " · ")
}

// watchRead starts the watch of a read of kind how: the header follows it
// until the read lands.
func (m *Model) watchRead(ctx context.Context, how string) context.Context {
	what := map[string]string{"newest": "newest entries", "older": "older entries", "newer": "newer entries",
		"oldest": "the oldest entries", "jump": "jump to " + m.jumpTo.UTC().Format(stampLayout)}[how]
	if what == "" {
		what = how
	}
	m.watch = &readWatch{what: what}
	return watching(ctx, m.watch)
}

// loadText is the header's "loading" part: what the read is doing.
func (m *Model) loadText() string {
	if m.watch == nil {
		return "loading"
	}
	return m.watch.text(m.env.Clock())
}

// syncText is the header's account of the mirror's sync: where it has
// reached, and how long it has left when known.
func (m *Model) syncText() string {
	p := m.syncProg.Load()
	if p == nil || p.UpTo.IsZero() {
		return "syncing mirror"
	}
	s := "syncing mirror, at " + p.UpTo.UTC().Format(stampLayout)
	if p.ETA > 0 {
		s += fmt.Sprintf(" (%s left)", p.ETA.Round(time.Second))
	}
	return s
}
