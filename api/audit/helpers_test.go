package audit_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// virtualClock is a clock whose Sleep moves time at once: a job that waits
// an hour runs through that hour at CPU speed, and the simulator (built on
// the same clock) sees the same time.
type virtualClock struct {
	mu  sync.Mutex
	now time.Time
}

func newVirtualClock() *virtualClock {
	return &virtualClock{now: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
}

func (c *virtualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *virtualClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.now = c.now.Add(max(d, 0))
	c.mu.Unlock()
	return ctx.Err()
}

// rig is a simulator behind a request counter and a client of it.
type rig struct {
	sim      *sim.Server
	client   *api.Client
	requests atomic.Int64 // audit requests (the logs paths)
	mu       sync.Mutex
	sent     []time.Time // when each audit request arrived, on the rig's clock
	asked    []url.URL   // each audit request's path and query, in order
}

// askedSince is the audit requests from the n-th on.
func (r *rig) askedSince(n int) []url.URL {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.asked[min(n, len(r.asked)):])
}

func (r *rig) sentTimes() []time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.sent)
}

func newRig(t *testing.T, opts sim.Options, clock api.Clock) *rig {
	t.Helper()
	if clock != nil {
		opts.Now = clock.Now
	}
	r := &rig{}
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if strings.HasPrefix(req.URL.Path, "/api/v1/logs/") {
				r.requests.Add(1)
				r.mu.Lock()
				r.asked = append(r.asked, *req.URL)
				if clock != nil {
					r.sent = append(r.sent, clock.Now())
				}
				r.mu.Unlock()
			}
			next.ServeHTTP(w, req)
		})
	}
	// The client keeps its default budgets unless the simulator has none.
	e := simtest.Start(t, simtest.Options{Sim: opts, Wrap: wrap, DefaultLimits: !opts.NoRateLimit, Client: api.Config{Clock: clock}})
	r.sim, r.client = e.Sim, e.Client
	return r
}

// fullLog reads the whole log through another client (earliest, then
// pages): what the service holds, in its order, each entry's id.
func (r *rig) fullLog(t *testing.T) []string {
	t.Helper()
	var ids []string
	_, err := r.client.Audit(api.AuditQuery{}).Each(context.Background(), func(e *api.AuditEntry, _ api.RawItem) error {
		ids = append(ids, e.ID)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// fakeMirror keeps the mirror in memory, by the interface's rules.
type fakeMirror struct {
	mu      sync.Mutex
	state   map[string]store.AuditMirrorState
	entries map[string][]store.AuditEntry
	ids     map[string]bool
	checks  map[string]string
	seq     int64
	saves   int
}

func newFakeMirror() *fakeMirror {
	return &fakeMirror{state: map[string]store.AuditMirrorState{}, entries: map[string][]store.AuditEntry{}, ids: map[string]bool{}, checks: map[string]string{}}
}

func (m *fakeMirror) AuditState(_ context.Context, log string) (store.AuditMirrorState, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[log], nil
}

func (m *fakeMirror) SaveAuditPage(_ context.Context, p store.AuditMirrorPage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.state[p.Log]
	if st.Cursor != p.Prev {
		return store.ErrAuditCursorMoved
	}
	m.saves++
	for _, e := range p.Entries {
		if m.ids[p.Log+"|"+e.ID] {
			continue
		}
		m.ids[p.Log+"|"+e.ID] = true
		m.seq++
		e.Seq = m.seq
		e.Raw = slices.Clone(e.Raw)
		m.entries[p.Log] = append(m.entries[p.Log], e)
		st.Entries++
		if st.First.IsZero() || e.Time.Before(st.First) {
			st.First = e.Time
		}
		if e.Time.After(st.Last) {
			st.Last = e.Time
		}
	}
	st.Cursor, st.Empty = p.Cursor, p.Empty
	if p.CaughtUp {
		st.CaughtUp = p.At
	}
	m.state[p.Log] = st
	return nil
}

func (m *fakeMirror) AuditEntries(_ context.Context, log string, f store.AuditFilter, fn func(store.AuditEntry) error) error {
	m.mu.Lock()
	all := slices.Clone(m.entries[log])
	m.mu.Unlock()
	if f.Newest {
		slices.Reverse(all)
	}
	n := 0
	for _, e := range all {
		if !f.Match(e) {
			continue
		}
		// strictly before Before in the mirror's order, as the store reads it
		if b := f.Before; !b.IsZero() && !(e.Time.Before(b.Time) || e.Time.Equal(b.Time) && e.Seq < b.Seq) {
			continue
		}
		if err := fn(e); err != nil {
			return err
		}
		if n++; f.Limit > 0 && n >= f.Limit {
			return nil
		}
	}
	return nil
}

func (m *fakeMirror) Unchanged() error { return nil }
func (m *fakeMirror) Check() error     { return nil }

func (m *fakeMirror) AuditCheckpoint(_ context.Context, name string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.checks[name], nil
}

func (m *fakeMirror) SaveAuditCheckpoint(_ context.Context, name, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.checks[name] = id
	return nil
}

func (m *fakeMirror) ids_(log string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, e := range m.entries[log] {
		out = append(out, e.ID)
	}
	return out
}

// idsOfLines reads the id of every JSON line.
func idsOfLines(t *testing.T, data string) []string {
	t.Helper()
	var ids []string
	for i, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		if line == "" {
			continue
		}
		var e struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil || e.ID == "" {
			t.Fatalf("line %d is not an entry: %q", i+1, line)
		}
		ids = append(ids, e.ID)
	}
	return ids
}
