package audit_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// collectNewest is collect with the newest-first walk's windows of chunk
// entries (the walk's own is a listing page), so a test crosses many.
func collectNewest(t *testing.T, j *audit.Job, f store.AuditFilter, chunk int) ([]string, audit.Answer) {
	t.Helper()
	var ids []string
	a, err := audit.NewestFirst(j, context.Background(), f, chunk, func(e store.AuditEntry) error {
		ids = append(ids, e.ID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids, a
}

// ownRead says the entry with id in log is a read of the log by the
// simulator's admin token (the trace this test's own requests leave).
func ownRead(log []store.AuditEntry, id string) bool {
	i := slices.IndexFunc(log, func(e store.AuditEntry) bool { return e.ID == id })
	return i >= 0 && log[i].Type == "api:audit_log_fetch"
}

// TestNewestFirstWithoutAMirror: newest first needs no mirror (it failed
// with ErrNewestNeedsMirror): on the 60,000-entry log the five
// newest entries come in a few requests, newest first; a type first seen
// at the end is one request carrying log_type; bounded by --until and
// --since the walk is the forward answer reversed, across many windows.
func TestNewestFirstWithoutAMirror(t *testing.T) {
	r, planted := bigLogRig(t)
	j := &audit.Job{Svc: r.client}

	n := len(r.askedSince(0))
	var five []store.AuditEntry
	a, err := j.Query(context.Background(), store.AuditFilter{Newest: true, Limit: 5}, func(e store.AuditEntry) error {
		five = append(five, e)
		return nil
	})
	if err != nil || len(five) != 5 {
		t.Fatalf("newest five: %d entries, %v", len(five), err)
	}
	ids := idsOf(five)
	asked := r.askedSince(n)
	// the log from a little before the fifth on, read forward, newest first
	var log []store.AuditEntry
	if _, err := j.Query(context.Background(), store.AuditFilter{Since: five[4].Time.Add(-time.Minute)}, func(e store.AuditEntry) error {
		log = append(log, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(log)
	at := slices.IndexFunc(log, func(e store.AuditEntry) bool { return e.ID == ids[0] })
	if len(ids) != 5 || at < 0 || !slices.Equal(ids, idsOf(log[at:at+5])) {
		t.Fatalf("newest five: %v, not a run of the log newest first (at %d)", ids, at)
	}
	for _, e := range log[:at] { // newer than the first shown: only this test's reads since
		if !ownRead(log, e.ID) {
			t.Fatalf("newest five start at %d: %s (%s) is newer and not shown", at, e.ID, e.Type)
		}
	}
	if len(asked) > 4 || a.Requests != len(asked) || !a.Service || a.Mirror {
		t.Errorf("newest five: %d audit requests (answer %+v), want at most 4", len(asked), a)
	}
	if s := a.String(); !strings.Contains(s, "from the service") || !strings.Contains(s, "newest first") {
		t.Errorf("newest five says %q", s)
	}

	for _, tc := range []struct {
		name string
		f    store.AuditFilter
		most int
	}{
		{"newest first", store.AuditFilter{Type: audit.TypeDeleteProject, Limit: 1, Newest: true}, 3},
		// room for more than the one there is: the walk back to the log's
		// start asks for the type only
		{"newest first, all", store.AuditFilter{Type: audit.TypeDeleteProject, Newest: true}, 40},
	} {
		n := len(r.askedSince(0))
		ids, a := collect(t, j, tc.f)
		if len(ids) != 1 || ids[0] != planted.ID {
			t.Errorf("%s: got %v, want the one deletion %s", tc.name, ids, planted.ID)
		}
		if a.Requests != len(r.askedSince(n)) {
			t.Errorf("%s: the answer says %d requests, the service saw %d", tc.name, a.Requests, len(r.askedSince(n)))
		}
		checkAsked(t, tc.name, r.askedSince(n), audit.TypeDeleteProject, tc.most)
	}
}

// TestNewestFirstIsTheForwardAnswerReversed: bounded by --until and
// --since, newest first is the forward answer reversed, entry for entry,
// across many windows (each below the last one's last entry), within the
// service's year and beyond it.
func TestNewestFirstIsTheForwardAnswerReversed(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, NoRateLimit: true, AuditEntries: 4000}, nil)
	j := &audit.Job{Svc: r.client}
	now := r.sim.Now()
	log := serviceLog(t, r.client)
	user := log[len(log)-200].User
	for _, f := range []store.AuditFilter{
		{Since: now.Add(-4 * 24 * time.Hour), Until: now.Add(-2 * 24 * time.Hour)},
		{User: user, Since: now.Add(-20 * 24 * time.Hour), Until: now.Add(-24 * time.Hour)},
		{Type: "auth:login", Since: now.Add(-400 * 24 * time.Hour), Until: now.Add(-370 * 24 * time.Hour)}, // beyond search's year
	} {
		forward, _ := collect(t, j, f)
		slices.Reverse(forward)
		nf := f
		nf.Newest = true
		got, _ := collectNewest(t, j, nf, 7)
		if len(forward) < 20 || !slices.Equal(got, forward) {
			t.Errorf("%+v: newest first in windows of 7 gave %d entries, the forward answer reversed %d", f, len(got), len(forward))
		}
	}
}

// TestNewestFirstPastAMirrorBehind: a mirror that does not reach the range
// asked (entries came after its last sync) no longer refuses newest first:
// the mirror answers what it holds and the service the rest, and the
// answer says so.
func TestNewestFirstPastAMirrorBehind(t *testing.T) {
	clock := newVirtualClock()
	r := newRig(t, sim.Options{Seed: 3, NoRateLimit: true, AuditEntries: 2000}, clock)
	j := &audit.Job{Svc: r.client, Mirror: newFakeMirror(), Clock: clock}
	if _, err := j.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.sim.SetAuditTrickle(30)
	r.sim.Advance(10 * time.Minute)
	r.sim.SetAuditTrickle(0)
	// from the newest (the mirror and the service's one-page tail), and
	// from a time after the mirror's reach in windows of 50 (the service
	// until the windows reach the mirror, the mirror from there)
	until := r.sim.Now()
	for _, tc := range []struct {
		f     store.AuditFilter
		chunk int
	}{{store.AuditFilter{Limit: 400}, 1000}, {store.AuditFilter{Limit: 400, Until: until}, 50}} {
		ids, a := collectNewest(t, j, tc.f, tc.chunk)
		log := serviceLog(t, r.client)
		slices.Reverse(log)
		at := slices.IndexFunc(log, func(e store.AuditEntry) bool { return e.ID == ids[0] })
		if len(ids) != 400 || at < 0 || !slices.Equal(ids, idsOf(log[at:at+400])) {
			t.Fatalf("%+v: newest 400 past the mirror: %d entries, not a run of the log newest first (at %d)", tc.f, len(ids), at)
		}
		for _, e := range log[:at] {
			if !ownRead(log, e.ID) && (tc.f.Until.IsZero() || e.Time.Before(until)) {
				t.Fatalf("%+v: %s (%s) is newer than the first shown and not shown", tc.f, e.ID, e.Type)
			}
		}
		if !a.Mirror || !a.Service || !strings.Contains(a.String(), "local mirror") {
			t.Errorf("%+v: answer %+v says %q", tc.f, a, a)
		}
	}
}

// tiedLog is a service whose log has runs of entries stamped with one
// instant (a burst written within a microsecond), in memory.
type tiedLog struct{ log []api.Item[api.AuditEntry] }

func newTiedLog(n, tie int) *tiedLog {
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	l := &tiedLog{}
	for i := range n {
		e := api.AuditEntry{ID: fmt.Sprintf("0199a87e-dd44-77a8-b719-%012d", i+1), Type: "auth:login",
			Timestamp: api.Time{Time: start.Add(time.Duration(i/tie) * time.Minute)}, User: "a@example.com"}
		l.log = append(l.log, api.Item[api.AuditEntry]{Value: e, JSON: []byte(`{"id":"` + e.ID + `"}`)})
	}
	return l
}

func (l *tiedLog) WhoAmI(context.Context) (*api.WhoAmI, error) {
	return &api.WhoAmI{WorkspaceID: "w"}, nil
}
func (l *tiedLog) Base() string                         { return "http://tied.test" }
func (l *tiedLog) Budget(api.Category) api.BudgetStatus { return api.BudgetStatus{Unlimited: true} }
func (l *tiedLog) AuditEarliest(context.Context, string) (*api.Item[api.AuditEntry], error) {
	return &l.log[0], nil
}
func (l *tiedLog) AuditLatest(context.Context, string) (*api.Item[api.AuditEntry], error) {
	return &l.log[len(l.log)-1], nil
}
func (l *tiedLog) AuditSearch(_ context.Context, t time.Time, _ string) (*api.Item[api.AuditEntry], error) {
	t = t.Truncate(time.Second) // whole seconds, as the client sends it
	for i := range l.log {
		if !l.log[i].Value.Timestamp.Before(t) {
			return &l.log[i], nil
		}
	}
	return nil, nil
}
func (l *tiedLog) AuditPage(_ context.Context, from string, take int, _ string) (api.AuditPage, error) {
	var p api.AuditPage
	for _, it := range l.log {
		if it.Value.ID > from && len(p.Entries) < take {
			p.Entries = append(p.Entries, it)
		}
	}
	p.Listed, p.Full = len(p.Entries), len(p.Entries) == take
	if p.Listed > 0 {
		p.Last = p.Entries[p.Listed-1].Value.ID
	}
	return p, nil
}

// TestNewestFirstKeepsTiesAtAWindowEdge: entries sharing the instant of a
// window's last entry, listed before it, start the next window; a bound
// by time alone dropped them.
func TestNewestFirstKeepsTiesAtAWindowEdge(t *testing.T) {
	l := newTiedLog(120, 6)
	clock := newVirtualClock()
	clock.now = l.log[len(l.log)-1].Value.Timestamp.Add(time.Minute)
	j := &audit.Job{Svc: l, Clock: clock}
	for _, chunk := range []int{4, 7, 1000} {
		for _, f := range []store.AuditFilter{{}, {Type: "auth:login"}} {
			got, _ := collectNewest(t, j, f, chunk)
			var want []string
			for i := len(l.log) - 1; i >= 0; i-- {
				want = append(want, l.log[i].Value.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("windows of %d, %+v: %d entries, want all %d newest first", chunk, f, len(got), len(want))
			}
		}
	}
}

// TestNewestFirstWithAFutureLatest: a latest entry dated years ahead (a
// skewed or hostile service) does not send the walk's stretches searching
// the future: they start no later than now, and the log is still found.
func TestNewestFirstWithAFutureLatest(t *testing.T) {
	l := newTiedLog(40, 1)
	clock := newVirtualClock()
	clock.now = l.log[len(l.log)-1].Value.Timestamp.Add(time.Minute)
	l.log[len(l.log)-1].Value.Timestamp = api.Time{Time: clock.now.Add(3 * 365 * 24 * time.Hour)}
	got, _ := collectNewest(t, &audit.Job{Svc: l, Clock: clock}, store.AuditFilter{Type: "auth:login", Limit: 10}, 1000)
	if len(got) != 10 || got[0] != l.log[len(l.log)-1].Value.ID || got[9] != l.log[len(l.log)-10].Value.ID {
		t.Errorf("newest ten of the type: %d entries %v", len(got), got)
	}
}

// TestNewestWindowOfTheTailAloneIsNoStart: a mirror behind the log by more
// than a window (and less than a page): the newest window is the
// service's tail after the mirror's cursor alone, and older entries
// remain, in the tail and in the mirror. It said Start (the log's
// beginning): a saved audit view reopened on 192 rows, "the whole log".
func TestNewestWindowOfTheTailAloneIsNoStart(t *testing.T) {
	full := newTiedLog(900, 1)
	l := &tiedLog{log: full.log[:600]}
	j := &audit.Job{Svc: l, Mirror: newFakeMirror()}
	if _, err := j.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.log = full.log // 300 entries since the sync: one short page
	w, err := j.Older(context.Background(), store.AuditFilter{}, store.AuditPosition{}, 200)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Entries) != 200 || w.Entries[0].ID != full.log[899].Value.ID {
		t.Fatalf("the newest window: %d entries from %v", len(w.Entries), w.Entries[:min(1, len(w.Entries))])
	}
	if w.Start {
		t.Errorf("the newest 200 of 900 say they reach the log's start")
	}
}
