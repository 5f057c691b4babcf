package access_test

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	. "github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

var epoch = time.Date(2026, 3, 9, 14, 0, 0, 0, time.UTC)

// harness is the large simulator behind a counter of vault requests, a
// client under the real vault limit on the simulator's clock (a wait for
// the budget advances the simulator, so the 10-a-minute limit costs no
// wall time and the simulated time a crawl took can be read off), and a
// snapshot store.
type harness struct {
	sim    *sim.Server
	clock  *simtest.Clock
	client *api.Client
	users  atomic.Int64 // GET .../users
	lists  atomic.Int64 // GET .../workspace/projects
}

func newHarness(t testing.TB, churn int) *harness {
	t.Helper()
	h := &harness{}
	e := simtest.Start(t, simtest.Options{
		Sim:      sim.Options{Scale: sim.ScaleLarge, Control: true, Now: func() time.Time { return epoch }, SharingChanges: churn},
		SimClock: true, DefaultLimits: true,
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch {
				case strings.HasSuffix(r.URL.Path, "/users"):
					h.users.Add(1)
				case strings.HasSuffix(r.URL.Path, "/workspace/projects"):
					h.lists.Add(1)
				}
				next.ServeHTTP(w, r)
			})
		}})
	h.sim, h.clock, h.client = e.Sim, e.Clock, e.Client
	return h
}

func (h *harness) crawler(st Snapshots) *Crawler {
	return &Crawler{API: h.client, Store: st, Profile: "work", Now: h.clock.Now}
}

func (h *harness) reset() (users, lists int64) { return h.users.Swap(0), h.lists.Swap(0) }

// stores runs a test with the fake and with the real store.
func stores(t *testing.T, fn func(t *testing.T, st Snapshots, fake *fakeSnapshots)) {
	t.Run("fake", func(t *testing.T) { f := &fakeSnapshots{}; fn(t, f, f) })
	t.Run("store", func(t *testing.T) {
		s, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		fn(t, s, nil)
	})
}

// failing wraps a store so that its Nth commit fails, as a crawl killed
// there would stop.
type failing struct {
	Snapshots
	n, after int
}

func (f *failing) CommitAccessProject(id int64, p store.AccessProject, users []store.AccessGrant) error {
	if f.n++; f.n >= f.after {
		return context.Canceled
	}
	return f.Snapshots.CommitAccessProject(id, p, users)
}

func TestCrawlResumesWithoutRereading(t *testing.T) {
	stores(t, func(t *testing.T, st Snapshots, _ *fakeSnapshots) {
		h := newHarness(t, -1)
		ctx := context.Background()
		if _, err := h.crawler(&failing{Snapshots: st, after: 101}).Run(ctx); err == nil {
			t.Fatal("the interrupted crawl reported success")
		}
		users, _ := h.reset()
		if users != 101 {
			t.Fatalf("first run read %d projects, want 101 (the 101st commit failed)", users)
		}
		snaps, _ := st.AccessSnapshots("work")
		if len(snaps) != 1 || snaps[0].Finished() || snaps[0].Read != 100 || snaps[0].Pending != 220 {
			t.Fatalf("after the interruption: %+v, want one unfinished snapshot, 100 read, 220 pending", snaps)
		}
		var seen []Progress
		c := h.crawler(st)
		c.Progress = func(p Progress) { seen = append(seen, p) }
		sn, err := c.Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		users, lists := h.reset()
		if users != 220 || lists != 4 {
			t.Fatalf("resume read %d projects and %d listing pages, want 220 and 4", users, lists)
		}
		if !sn.Finished() || sn.Projects != 320 || sn.Read != 320 || sn.Requests != 101+4+220+4 {
			t.Fatalf("snapshot %+v, want finished, 320 read, %d requests", sn, 101+4+220+4)
		}
		if p := seen[0]; p.Total != 320 || p.Done != 100 || p.ToRead != 220 || p.ETA <= 0 {
			t.Fatalf("first progress %+v, want 100 of 320 done, 220 to read, an ETA", p)
		}
		if p := seen[len(seen)-1]; p.Done != 320 || p.Read != 220 || p.ETA != 0 {
			t.Fatalf("last progress %+v", p)
		}
		// The resumed snapshot holds what one uninterrupted crawl finds.
		whole := newFakeCrawl(t, h)
		got, _ := st.AccessGrants(sn.ID, store.AccessGrantFilter{})
		if d := Diff(whole, got); len(d) != 0 || len(got) < 320 {
			t.Fatalf("resumed snapshot differs from an uninterrupted crawl in %d grants (%d grants): %v", len(d), len(got), d[:min(len(d), 5)])
		}
	})
}

// newFakeCrawl crawls the harness's simulator from scratch into a fresh
// fake store and returns its grants: the reference a snapshot must equal.
func newFakeCrawl(t *testing.T, h *harness) []store.AccessGrant {
	t.Helper()
	f := &fakeSnapshots{}
	sn, err := (&Crawler{API: h.client, Store: f, Profile: "ref", Now: h.clock.Now}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h.reset()
	g, _ := f.AccessGrants(sn.ID, store.AccessGrantFilter{})
	return g
}

// TestDailyCrawlReadsOnlyChanged: after the first snapshot, four sharing
// changes made through the simulator (a grant, a level change, a
// revocation, a MANAGE grant) and a day's turn of the clock; the second
// crawl reads those four projects and the listing, and the diff is exactly
// those four changes.
func TestDailyCrawlReadsOnlyChanged(t *testing.T) {
	stores(t, func(t *testing.T, st Snapshots, _ *fakeSnapshots) {
		h := newHarness(t, -1)
		ctx := context.Background()
		listed := listProjects(t, h)
		// Four projects and, for each, a person with no access to it.
		type pick struct{ id, name, email string }
		var picks []pick
		people := peopleOf(t, h)
		for _, p := range listed[10:14] {
			users, _, _ := h.client.ProjectUsers(p.ID).Collect(ctx)
			for _, e := range people {
				if !slices.ContainsFunc(users, func(x api.ProjectUser) bool { return strings.EqualFold(x.Email, e) }) {
					picks = append(picks, pick{p.ID, p.Name, e})
					break
				}
			}
		}
		// Before the first crawl: the third and fourth people get READ.
		for _, p := range picks[2:] {
			if err := h.sim.Share(p.id, p.email, "READ"); err != nil {
				t.Fatal(err)
			}
		}
		first, err := h.crawler(st).Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		h.reset()
		// Next day: a READ and a MANAGE grant, READ -> MANAGE, a revocation.
		h.sim.Advance(24 * time.Hour)
		for i, lvl := range []string{"READ", "MANAGE", "MANAGE", ""} {
			if err := h.sim.Share(picks[i].id, picks[i].email, lvl); err != nil {
				t.Fatal(err)
			}
		}
		second, err := h.crawler(st).Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		users, lists := h.reset()
		if users != 4 || lists != 4 || second.Requests != 8 || second.Read != 4 || second.Carried != 316 {
			t.Fatalf("daily crawl: %d project reads, %d listing pages, snapshot %+v; want 4, 4, 8 requests, 316 carried", users, lists, second)
		}
		_, _, diff, err := DiffSnapshots(st, "work", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := []Change{
			{Kind: Gained, ProjectID: picks[0].id, Email: picks[0].email, To: "READ"},
			{Kind: Gained, ProjectID: picks[1].id, Email: picks[1].email, To: "MANAGE"},
			{Kind: Changed, ProjectID: picks[2].id, Email: picks[2].email, From: "READ", To: "MANAGE"},
			{Kind: Lost, ProjectID: picks[3].id, Email: picks[3].email, From: "READ"},
		}
		var got []Change
		for _, c := range diff {
			got = append(got, Change{Kind: c.Kind, ProjectID: c.ProjectID, Email: strings.ToLower(c.Email), From: c.From, To: c.To})
		}
		sortChanges(want)
		sortChanges(got)
		if !slices.Equal(got, want) {
			t.Fatalf("diff %d..%d:\n got %v\nwant %v", first.ID, second.ID, got, want)
		}
	})
}

// TestDailyCrawlAfterSimMidnight: the simulator's own changes at midnight
// (5 a day at large scale). The second crawl reads exactly the projects
// whose project_updated_at moved, and its snapshot equals a full crawl.
func TestDailyCrawlAfterSimMidnight(t *testing.T) {
	stores(t, func(t *testing.T, st Snapshots, _ *fakeSnapshots) {
		h := newHarness(t, 0)
		ctx := context.Background()
		if _, err := h.crawler(st).Run(ctx); err != nil {
			t.Fatal(err)
		}
		before := listProjects(t, h)
		h.reset()
		h.sim.Advance(24 * time.Hour) // crosses one UTC midnight
		after := listProjects(t, h)
		moved := 0
		for _, a := range after {
			if i := slices.IndexFunc(before, func(b api.Project) bool { return b.ID == a.ID }); i < 0 || !before[i].ProjectUpdatedAt.Equal(a.ProjectUpdatedAt.Time) {
				moved++
			}
		}
		if moved == 0 {
			t.Fatal("the simulator changed nothing at midnight")
		}
		h.reset()
		sn, err := h.crawler(st).Run(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if users, _ := h.reset(); int(users) != moved || sn.Read != moved {
			t.Fatalf("daily crawl read %d projects (snapshot: %d), want the %d whose time moved", users, sn.Read, moved)
		}
		got, _ := st.AccessGrants(sn.ID, store.AccessGrantFilter{})
		if d := Diff(newFakeCrawl(t, h), got); len(d) != 0 {
			t.Fatalf("incremental snapshot differs from a full crawl: %v", d)
		}
		if _, _, diff, _ := DiffSnapshots(st, "work", 0, 0); len(diff) == 0 || len(diff) > 5 {
			t.Fatalf("diff of the day's changes has %d entries, want 1..5: %v", len(diff), diff)
		}
	})
}

// TestCrawlBusy: a second crawl of the profile while the first holds the
// lease is refused; another profile is not.
func TestCrawlBusy(t *testing.T) {
	stores(t, func(t *testing.T, st Snapshots, _ *fakeSnapshots) {
		now := epoch
		alive := func(string) bool { return false }
		if _, err := st.OpenAccessSnapshot("work", "a", now, now.Add(time.Minute), alive); err != nil {
			t.Fatal(err)
		}
		if _, err := st.OpenAccessSnapshot("work", "b", now, now.Add(time.Minute), alive); err != store.ErrAccessBusy {
			t.Fatalf("second owner: %v, want store.ErrAccessBusy", err)
		}
		if _, err := st.OpenAccessSnapshot("home", "b", now, now.Add(time.Minute), alive); err != nil {
			t.Fatalf("another profile: %v", err)
		}
		if _, err := st.OpenAccessSnapshot("work", "b", now.Add(2*time.Minute), now.Add(3*time.Minute), alive); err != nil {
			t.Fatalf("after the lease expired: %v", err)
		}
		// A holder whose process is gone (kill -9) is taken over at once.
		if _, err := st.OpenAccessSnapshot("work", "c", now.Add(2*time.Minute), now.Add(3*time.Minute), func(h string) bool { return h == "b" }); err != nil {
			t.Fatalf("the holder's process is gone: %v", err)
		}
	})
}

func sortChanges(cs []Change) {
	slices.SortFunc(cs, func(a, b Change) int { return strings.Compare(a.ProjectID+a.Email, b.ProjectID+b.Email) })
}

func listProjects(t *testing.T, h *harness) []api.Project {
	t.Helper()
	out, _, err := h.client.Projects(api.ProjectQuery{}).Collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// peopleOf returns the e-mails of the workspace's users, from the first
// project's users and the sharing records, enough to pick outsiders.
func peopleOf(t *testing.T, h *harness) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	for _, p := range listProjects(t, h)[:40] {
		users, _, err := h.client.ProjectUsers(p.ID).Collect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range users {
			if e := strings.ToLower(x.Email); !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	slices.Sort(out)
	return out
}
