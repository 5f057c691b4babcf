package person_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/store"
)

// largeLocal writes, straight into a store, the local data of the large
// simulator's shape: a finished access snapshot of 320 projects and 220
// people (10 users a project, one MANAGE), the projects listing (4 cached
// pages of 100), a recycle bin of 1,000 entries, 200 client matters, and
// an audit mirror of n entries over 60 days, spread over the 220 people
// with two addresses each. Written directly (no crawl, no sync): a CI pass
// seeds in about a second. path "" is a temporary file; a path whose
// mirror already holds n entries is reused as is (the million takes
// minutes to write once).
func largeLocal(tb testing.TB, path string, n int, now time.Time) (*store.Store, person.Local) {
	tb.Helper()
	if path == "" {
		path = filepath.Join(tb.TempDir(), "v.db")
	}
	st, err := store.OpenWith(path, store.Options{NoSync: true}) // a seed needs no fsync
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	ctx := context.Background()
	in := person.Local{Snapshots: st, Profile: "p", Mirror: st, Log: "L", Cache: person.StoreCache{Store: st, Profile: "p"}}
	email := func(u int) string { return fmt.Sprintf("user%03d@firm.com", u) }
	pid := func(p int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", p) }
	if state, err := st.AuditState(ctx, "L"); err != nil {
		tb.Fatal(err)
	} else if state.Entries == int64(n) {
		return st, in
	} else if state.Entries != 0 {
		tb.Fatalf("%s holds %d entries, not %d: remove it", path, state.Entries, n)
	}
	sn, err := st.OpenAccessSnapshot("p", "bench", now.Add(-time.Hour), now, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var projects []api.Project
	for p := range 320 {
		pr := store.AccessProject{ID: pid(p), Name: fmt.Sprintf("Project %03d", p), UpdatedAt: "t"}
		var gs []store.AccessGrant
		for k := range 10 {
			u := (p*7 + k*23) % 220
			lvl := "READ"
			if k == 0 {
				lvl = "MANAGE"
			}
			gs = append(gs, store.AccessGrant{ProjectID: pr.ID, ProjectName: pr.Name, UserID: strconv.Itoa(u), Email: email(u), Name: "User " + strconv.Itoa(u), AccessLevel: lvl})
		}
		if err := st.CommitAccessProject(sn.ID, pr, gs); err != nil {
			tb.Fatal(err)
		}
		projects = append(projects, api.Project{ID: pr.ID, Name: pr.Name, CreatorEmail: email(p % 220)})
	}
	if err := st.FinishAccessSnapshot(sn.ID, now.Add(-30*time.Minute)); err != nil {
		tb.Fatal(err)
	}
	put := func(key string, v any) {
		body, err := json.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		if err := in.Cache.Put(key, body, now.Add(-time.Hour)); err != nil {
			tb.Fatal(err)
		}
	}
	for pg := range 4 {
		page := api.ProjectPage{Projects: projects[pg*100 : min(320, pg*100+100)]}
		page.Pagination.Page, page.Pagination.PerPage, page.Pagination.Total, page.Pagination.TotalPages = api.Int(pg+1), 100, 320, 4
		put(fmt.Sprintf(person.CacheProjectPage, pg+1), page)
	}
	var rb api.RecycleBin
	for i := range 1000 {
		e := api.RecycleBinEntry{ID: fmt.Sprintf("bin-%04d", i), DeletedByUserEmail: email(i % 220)}
		e.RecycleBinPurgedScheduledAt.Time = now.Add(time.Duration(i) * time.Hour)
		rb.Items = append(rb.Items, e)
	}
	put(person.CacheRecycleBin, rb)
	var ms []api.ClientMatter
	for i := range 200 {
		ms = append(ms, api.ClientMatter{ID: strconv.Itoa(i), Name: fmt.Sprintf("C%03d.M", i), UserEmail: email(i % 220), UserCount: 2, TotalEvents: api.Int(i)})
	}
	put(person.CacheMatters, ms)

	rng := rand.New(rand.NewPCG(3, 4))
	types := []string{"auth:login", "user:word_add_in_docx_drafting", "user:outlook_add_in_ask", "admin:fetch_workspace_users"}
	start, span := now.Add(-60*24*time.Hour), 60*24*time.Hour
	prev := ""
	for i := 0; i < n; i += 5000 {
		pg := store.AuditMirrorPage{Log: "L", Prev: prev}
		for k := i; k < min(i+5000, n); k++ {
			u := rng.IntN(220)
			e := store.AuditEntry{ID: fmt.Sprintf("%08d-0000-7000-8000-000000000000", k), Time: start.Add(time.Duration(k) * (span / time.Duration(n))),
				Type: types[rng.IntN(len(types))], User: email(u), IP: fmt.Sprintf("10.0.%d.%d", u, rng.IntN(2))}
			e.Raw = fmt.Appendf(nil, `{"id":%q,"type":%q,"user":%q,"ip":%q}`, e.ID, e.Type, e.User, e.IP)
			pg.Entries = append(pg.Entries, e)
		}
		pg.Cursor = pg.Entries[len(pg.Entries)-1].ID
		if err := st.SaveAuditPage(ctx, pg); err != nil {
			tb.Fatal(err)
		}
		prev = pg.Cursor
	}
	return st, in
}

// BenchmarkPersonReport: one person's report from local data alone, on
// the large simulator's shape with a mirror of 20,000 entries by default
// (a CI pass takes seconds); VAULTDECK_BENCH_PERSON_ENTRIES=1000000 for
// the figure in BENCHMARKS.md (goal: under 50 ms), and
// VAULTDECK_BENCH_PERSON_DB=path to keep that database between runs.
// One op is one report in full: reach with sole MANAGE, created,
// deleted, and activity over all of the person's entries.
func BenchmarkPersonReport(b *testing.B) {
	n := 20_000
	if v := os.Getenv("VAULTDECK_BENCH_PERSON_ENTRIES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	now := time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
	_, in := largeLocal(b, os.Getenv("VAULTDECK_BENCH_PERSON_DB"), n, now)
	ctx := context.Background()
	b.ResetTimer()
	var r *person.Report
	var err error
	for b.Loop() {
		if r, err = person.Read(ctx, in, "user007@firm.com", now, person.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if len(r.Missing()) != 0 || len(r.Reach.Grants) == 0 || len(r.Created.Projects) == 0 || len(r.Deleted.Entries) == 0 ||
		len(r.Created.Matters) == 0 || r.Activity.Total == 0 {
		b.Fatalf("a part is empty or missing: %+v", r)
	}
	b.ReportMetric(float64(r.Activity.Total), "entries/person")
}
