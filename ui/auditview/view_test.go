package auditview

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

func idsOf(es []api.AuditEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

// newestShown checks that the table shows the log's entries newest first,
// ending at the log's newest entry as of the view's read (the test's own
// reads of the log come after it).
func newestShown(t *testing.T, r *rig) {
	t.Helper()
	shown := r.m.Table.VisibleIDs()
	if len(shown) == 0 {
		t.Fatalf("nothing shown:\n%s", r.m.View())
	}
	entries := r.log()
	log := idsOf(entries)
	top := slices.Index(log, shown[0])
	for _, e := range entries[top+1:] {
		// only reads of the log, the view's after its first stretch and
		// this test's, may be newer than the top row
		if e.Type != sim.AuditAPIFetch {
			t.Fatalf("the top row is entry %d of %d, not the newest (%s is newer):\n%s", top, len(log), e.Type, strings.Join(r.rows()[:5], "\n"))
		}
	}
	want := slices.Clone(log[max(top+1-len(shown), 0) : top+1])
	slices.Reverse(want)
	if !slices.Equal(shown, want) {
		t.Fatalf("not the newest entries in reverse:\n%s", strings.Join(r.rows()[:10], "\n"))
	}
}

// TestOpensAtNewest: :audit opens on today's entries, newest at the top,
// without a mirror (the service read back by time) and with one.
func TestOpensAtNewest(t *testing.T) {
	for _, mirror := range []bool{false, true} {
		r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, mirror, "")
		r.run(r.m.Init())
		newestShown(t, r)
		if !strings.HasPrefix(r.rows()[0], simNow.Format("2006-01-02")) {
			t.Errorf("the top row is not today's: %s", r.rows()[0])
		}
		if v := r.m.View(); !strings.Contains(v, "newest first") {
			t.Errorf("header does not say newest first:\n%s", strings.SplitN(v, "\n", 2)[0])
		}
	}
}

// TestOldestAndNewest: g lands on the log's first entries (the oldest at
// the bottom, selected), G back on the newest.
func TestOldestAndNewest(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, false, "")
	r.run(r.m.Init())
	r.key("g")
	log := idsOf(r.log())
	shown := r.m.Table.VisibleIDs()
	if sel, _ := r.m.Table.Selected(); sel.ID != log[0] || shown[len(shown)-1] != log[0] {
		t.Fatalf("g: selected %s, bottom %s; want the earliest %s", sel.ID, shown[len(shown)-1], log[0])
	}
	r.key("G")
	newestShown(t, r)
	if sel, _ := r.m.Table.Selected(); sel.ID != r.m.Table.VisibleIDs()[0] {
		t.Errorf("G: the cursor is not on the newest row")
	}
}

// TestJumpLandsOnTime: @ and a date, or :audit DATE, land on the first
// entry at or after it, selected, with newer entries above and older below.
func TestJumpLandsOnTime(t *testing.T) {
	at := simNow.Add(-23 * 24 * time.Hour).Truncate(24 * time.Hour)
	check := func(t *testing.T, r *rig) {
		t.Helper()
		log := r.log()
		first := slices.IndexFunc(log, func(e api.AuditEntry) bool { return !e.Timestamp.Before(at) })
		sel, ok := r.m.Table.Selected()
		if !ok || sel.ID != log[first].ID {
			t.Fatalf("selected %v, want the first entry at or after %s (%s at %s)", sel.ID, at, log[first].ID, log[first].Timestamp)
		}
		i := slices.Index(r.m.Table.VisibleIDs(), sel.ID)
		if i == 0 || i == r.m.Table.Len()-1 {
			t.Errorf("landed at row %d of %d: want newer above and older below", i, r.m.Table.Len())
		}
		if below := r.m.Table.VisibleIDs()[i+1]; below != log[first-1].ID {
			t.Errorf("the row below is %s, want the entry before (%s)", below, log[first-1].ID)
		}
	}
	for _, mirror := range []bool{false, true} {
		r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, mirror, "")
		r.run(r.m.Init())
		r.key("@")
		r.typeLine(at.Format("2006-01-02"))
		check(t, r)

		r2 := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, mirror, at.Format("2006-01-02"))
		r2.run(r2.m.Init())
		check(t, r2)
	}
}

// TestUserAndAddressFiltersNeedNoRequest: once the mirror has synced (in
// the background, from Init), w and I answer from it: the simulator sees
// no request at all, and every row is the user's (or the address's).
func TestUserAndAddressFiltersNeedNoRequest(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, true, "")
	r.run(r.m.Init())
	if !r.m.synced {
		t.Fatalf("the mirror did not sync:\n%s", r.m.View())
	}
	log := r.log()
	pick := log[len(log)/3]
	for _, c := range []struct{ key, value, col string }{{"w", pick.User, "user"}, {"I", pick.IP, "ip"}} {
		before := r.requests.Load()
		r.key(c.key)
		r.retype(c.value)
		if n := r.requests.Load() - before; n != 0 {
			t.Errorf("%s filter: %d requests, want none", c.col, n)
		}
		if r.m.Table.Len() == 0 {
			t.Fatalf("%s filter: nothing shown", c.col)
		}
		for _, row := range r.rows() {
			if !strings.Contains(row, c.value) {
				t.Fatalf("%s filter %s shows %s", c.col, c.value, row)
			}
		}
		r.key(c.key)
		r.retype("") // back to all
	}
}

// TestFollowShowsNewEntries: F follows; as the simulator's clock moves,
// its trickle's entries appear at the top; a look that finds only the
// view's own reads is caught up, not news; scrolled away, new entries are
// counted in the header.
func TestFollowShowsNewEntries(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 500, AuditTrickle: 6}, false, "")
	r.run(r.m.Init())
	r.key("F")
	r.tick() // the first look: the view's own reads so far
	r.tick()
	if !r.m.caughtUp {
		t.Fatalf("after looks that found only its own reads the follow is not caught up:\n%s", r.m.headerLine())
	}
	if !strings.Contains(r.m.headerLine(), "caught up") {
		t.Errorf("header: %s", r.m.headerLine())
	}
	r.sim.Advance(5 * time.Minute)
	r.tick()
	if r.m.caughtUp {
		t.Errorf("a look that found user entries is caught up")
	}
	top := r.m.entries[:10]
	users := 0
	for _, e := range top {
		if !strings.HasPrefix(e.Type, "api:") {
			users++
			if e.Time.Before(simNow) {
				t.Errorf("a new entry from before the follow: %v", e.Time)
			}
		}
	}
	if users < 10-3 {
		t.Errorf("the trickle's entries are not at the top: %d of the top 10", users)
	}
	if sel, _ := r.m.Table.Selected(); sel.ID != r.m.Table.VisibleIDs()[0] {
		t.Errorf("following at the top, the cursor left the top")
	}
	r.key("down")
	r.key("down")
	r.sim.Advance(5 * time.Minute)
	r.tick()
	if r.m.newCount == 0 || !strings.Contains(r.m.headerLine(), "new above") {
		t.Errorf("scrolled away, no count of new entries: %s", r.m.headerLine())
	}
	n := r.m.newCount
	r.tick() // finds only the view's own read: shown, not counted as news
	if r.m.newCount != n {
		t.Errorf("own reads counted as new: %d -> %d", n, r.m.newCount)
	}
}

// TestTypePickerOffersDocumentedAndSeen: t lists (all types), the
// documented types and those seen; picking one answers from the mirror
// with no request, every row of that type.
func TestTypePickerOffersDocumentedAndSeen(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 1000}, true, "")
	r.run(r.m.Init())
	r.key("t")
	v := r.m.View()
	for _, want := range []string{"(all types)", "api:vault_upload_files", "auth:login", "user:outlook_add_in_ask"} {
		if !strings.Contains(v, want) {
			t.Fatalf("picker lacks %s:\n%s", want, v)
		}
	}
	at := slices.Index(r.m.picker, "auth:login")
	before := r.requests.Load()
	for range at {
		r.key("down")
	}
	r.key("enter")
	if n := r.requests.Load() - before; n != 0 {
		t.Errorf("%d requests for a type from the mirror", n)
	}
	if r.m.Table.Len() == 0 {
		t.Fatal("no login shown")
	}
	for _, row := range r.rows() {
		if !strings.Contains(row, "| auth:login |") {
			t.Fatalf("a row of another type: %s", row)
		}
	}
}

// TestFollowSendsTheTypeFilter: with a type asked, every audit request of
// the view, the follow's looks included, carries it as log_type (as the
// headless command's do), and the looks page on from where the listing
// stopped, not from the last entry of that type: a look after a page of
// other types' entries does not read that page again.
func TestFollowSendsTheTypeFilter(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 500, AuditTrickle: 6}, false, "auth:login")
	r.run(r.m.Init())
	r.key("F")
	r.tick()
	r.sim.Advance(5 * time.Minute)
	r.tick()
	r.tick()
	looks := 0
	for _, q := range r.auditRequests() {
		if !strings.Contains(q, "log_type=auth%3Alogin") {
			t.Errorf("an audit request without the type: %s", q)
		}
		if strings.HasPrefix(q, "/api/v1/logs/audit?") {
			looks++
		}
	}
	if looks < 3 {
		t.Fatalf("%d looks at the listing, want the follow's 3: %v", looks, r.auditRequests())
	}
	for _, row := range r.rows() {
		if !strings.Contains(row, "| auth:login |") {
			t.Fatalf("a row of another type: %s", row)
		}
	}
}
