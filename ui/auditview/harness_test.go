package auditview

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// testTheme renders with the ASCII profile, so any ESC byte in a view is a leak.
func testTheme(tb testing.TB) themes.Theme { return pagetest.Theme(tb) }

// simNow is the simulator's base clock in these tests: 2026-11-24 12:00 UTC.
var simNow = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

// rig is the audit view over a simulator served over HTTP, with every
// request counted where the simulator receives it, and optionally a store
// for the mirror.
type rig struct {
	t        testing.TB
	sim      *sim.Server
	client   *api.Client
	requests atomic.Int64
	mu       sync.Mutex
	audits   []string // the audit requests' paths and queries, in order
	st       *store.Store
	m        *Model
	stat     []page.StatusMsg
	ticks    []tea.Msg // follow ticks held for the test to deliver
}

func newRig(t testing.TB, opts sim.Options, mirror bool, arg string) *rig {
	t.Helper()
	if opts.Now == nil {
		opts.Now = func() time.Time { return simNow }
	}
	opts.NoRateLimit = true
	r := &rig{t: t}
	e := simtest.Start(t, simtest.Options{Sim: opts,
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				r.requests.Add(1)
				if strings.HasPrefix(req.URL.Path, "/api/v1/logs/audit") {
					r.mu.Lock()
					r.audits = append(r.audits, req.URL.Path+"?"+req.URL.RawQuery)
					r.mu.Unlock()
				}
				next.ServeHTTP(w, req)
			})
		}})
	r.sim, r.client = e.Sim, e.Client
	c := e.Client
	env := page.Env{Backend: c, Theme: testTheme(t), Keys: keys.New(false), IDs: &page.IDs{},
		Now: r.sim.Now, TaskPoll: time.Millisecond}
	if mirror {
		st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		r.st, env.Journal = st, st
	}
	r.m = New(env, arg).(*Model)
	r.m.SetSize(120, 40)
	return r
}

// auditRequests are the audit requests the simulator received so far.
func (r *rig) auditRequests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.audits)
}

// run executes cmd to the end, keeping status lines and holding back the
// follow's ticks (the test delivers them after moving the clock).
func (r *rig) run(cmd tea.Cmd) {
	_, out := pagetest.Drive(r.m, cmd, func(msg tea.Msg) bool {
		if _, ok := msg.(pollTick); ok {
			r.ticks = append(r.ticks, msg)
			return true
		}
		return false
	})
	for _, msg := range out {
		if st, ok := msg.(page.StatusMsg); ok {
			r.stat = append(r.stat, st)
			if st.Err != nil {
				r.t.Logf("status error: %v", st.Err)
			}
		}
	}
}

func (r *rig) key(s string) {
	_, cmd := r.m.Update(pagetest.Key(s))
	r.run(cmd)
}

func (r *rig) typeLine(s string) {
	for _, c := range s {
		r.key(string(c))
	}
	r.key("enter")
}

// tick delivers the held follow ticks.
func (r *rig) tick() {
	ticks := r.ticks
	r.ticks = nil
	for _, t := range ticks {
		_, cmd := r.m.Update(t)
		r.run(cmd)
	}
}

// log is the service's whole log, oldest first, read through its own
// client (which leaves reads of its own in the log).
func (r *rig) log() []api.AuditEntry {
	r.t.Helper()
	var out []api.AuditEntry
	_, err := r.client.Audit(api.AuditQuery{}).Each(context.Background(), func(e *api.AuditEntry, _ api.RawItem) error {
		out = append(out, *e)
		return nil
	}, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	return out
}

// rows is the table as shown: each row's cells joined by " | ".
func (r *rig) rows() []string {
	var out []string
	for _, id := range r.m.Table.VisibleIDs() {
		e := r.m.entries[r.m.byID[id]]
		out = append(out, strings.Join([]string{e.Time.UTC().Format(timeLayout), e.Type, e.User, e.IP}, " | "))
	}
	return out
}
