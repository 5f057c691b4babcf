package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestPersonMatchesTheAPI: on the large simulator (220 people, 320
// projects; a smaller bin and log so the test takes seconds) after one
// access crawl and one audit sync, `person --json` for the planted
// leaver matches what the API gives for each part, read directly; the
// first report asks only for the listings nothing local held, the second
// asks nothing.
func TestPersonMatchesTheAPI(t *testing.T) {
	var requests atomic.Int64
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Scale: sim.ScaleLarge, NoRateLimit: true, SharingChanges: -1,
		RecycleBin: 400, AuditEntries: 3000, Leaver: true},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				next.ServeHTTP(w, r)
			})
		}})
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			},
			OpenStore: func() (*store.Store, error) { return store.Open(dbPath) }}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	if r := vd("--max-rate", "100000", "access", "crawl"); r.code != ExitOK {
		t.Fatalf("crawl: %d %q", r.code, r.stderr)
	}
	if r := vd("--max-rate", "100000", "audit", "sync"); r.code != ExitOK {
		t.Fatalf("sync: %d %q", r.code, r.stderr)
	}
	who := e.Sim.Leaver()
	requests.Store(0)
	r := vd("person", strings.ToUpper(who), "--json")
	var rep person.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != ExitOK {
		t.Fatalf("person --json: %d %v %q", r.code, err, r.stderr)
	}
	// 4 pages of 100 projects, the bin, the matters listing.
	if n := requests.Load(); n != 6 || rep.Requests != 6 {
		t.Errorf("first report: %d requests (report says %d), want 6", n, rep.Requests)
	}

	ctx, c := context.Background(), e.Client
	// Reach and sole MANAGE, from every project's users.
	var wantGrants, wantSole []string
	all, _, err := c.Projects(api.ProjectQuery{}).Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all {
		us, _, err := c.ProjectUsers(p.ID).Collect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mine, others := "", false
		for _, u := range us {
			if strings.EqualFold(u.Email, who) {
				mine = u.AccessLevel
			} else if u.AccessLevel == "MANAGE" {
				others = true
			}
		}
		if mine != "" {
			wantGrants = append(wantGrants, p.ID+" "+mine)
		}
		if mine == "MANAGE" && !others {
			wantSole = append(wantSole, p.ID)
		}
	}
	var gotGrants, gotSole []string
	for _, g := range rep.Reach.Grants {
		gotGrants = append(gotGrants, g.ProjectID+" "+g.AccessLevel)
	}
	for _, g := range rep.Reach.SoleManage {
		gotSole = append(gotSole, g.ProjectID)
	}
	same(t, "reach", gotGrants, wantGrants)
	same(t, "sole MANAGE", gotSole, wantSole)
	if len(wantSole) == 0 || rep.Reach.Grants[0].AccessLevel != "MANAGE" {
		t.Errorf("the leaver has no sole-MANAGE project, or MANAGE is not first: %+v", rep.Reach)
	}

	// Created projects and matters.
	var wantProjects, gotProjects []string
	for _, p := range all {
		if strings.EqualFold(p.CreatorEmail, who) {
			wantProjects = append(wantProjects, p.ID)
		}
	}
	for _, p := range rep.Created.Projects {
		gotProjects = append(gotProjects, p.ID)
	}
	same(t, "created projects", gotProjects, wantProjects)
	var wantMatters, gotMatters []string
	if _, err := c.ClientMatters().Each(ctx, func(m *api.ClientMatter, _ api.RawItem) error {
		if strings.EqualFold(m.UserEmail, who) {
			wantMatters = append(wantMatters, m.ID+" "+m.Name)
		}
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range rep.Created.Matters {
		gotMatters = append(gotMatters, m.ID+" "+m.Name)
	}
	same(t, "matters", gotMatters, wantMatters)

	// Deletions in the bin.
	bin, _, err := c.RecycleBin(api.RecycleBinQuery{}).Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var wantDeleted, gotDeleted []string
	for _, x := range bin {
		if strings.EqualFold(x.DeletedByUserEmail, who) {
			wantDeleted = append(wantDeleted, x.ID+" "+x.RecycleBinPurgedScheduledAt.UTC().String())
		}
	}
	for _, x := range rep.Deleted.Entries {
		gotDeleted = append(gotDeleted, x.ID+" "+x.RecycleBinPurgedScheduledAt.UTC().String())
	}
	same(t, "deleted", gotDeleted, wantDeleted)
	if len(wantDeleted) < 2 {
		t.Errorf("the leaver has %d deletions in the bin, want 2", len(wantDeleted))
	}

	// Activity: every entry of theirs the service lists.
	var total int
	var latest, lastLogin string
	if _, err := c.Audit(api.AuditQuery{}).Each(ctx, func(x *api.AuditEntry, _ api.RawItem) error {
		if !strings.EqualFold(x.User, who) {
			return nil
		}
		total++
		latest = x.ID // ascending: the last one seen is the newest
		if strings.Contains(string(x.Type), "login") {
			lastLogin = x.ID
		}
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	a := rep.Activity
	if a.Total != total || len(a.Latest) == 0 || a.Latest[0].ID != latest || a.LastLogin == nil || a.LastLogin.ID != lastLogin {
		t.Errorf("activity: total %d latest %+v login %+v; the API: total %d latest %s login %s", a.Total, a.Latest[:min(1, len(a.Latest))], a.LastLogin, total, latest, lastLogin)
	}
	if !slices.ContainsFunc(a.Addresses, func(ad person.Address) bool { return ad.IP == sim.LeaverIP && ad.New }) {
		t.Errorf("the planted login's address is not marked new: %+v", a.Addresses)
	}

	// Everything is local now: the next report, in every form, asks nothing.
	requests.Store(0)
	for _, args := range [][]string{{"--json"}, {}, {"--csv", "--section", "reach"}, {"--csv", "--section", "deleted"}, {"--offboarding"}} {
		if r := vd(append([]string{"person", who}, args...)...); r.code != ExitOK {
			t.Errorf("person %v: %d %q", args, r.code, r.stderr)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("reports from local data made %d requests", n)
	}
	r = vd("person", who, "--offboarding")
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("offboarding: %v %q", err, r.stdout)
	}
	kinds := map[string]int{}
	for _, rec := range recs[1:] {
		kinds[rec[1]]++
	}
	// every project reached is a row, and so is the planted login from a new address
	if kinds["sole-manage"] != len(wantSole) || kinds["own-project"] != len(wantProjects) || kinds["in-recycle-bin"] != len(wantDeleted) ||
		kinds["note"] != 1 || kinds["access"] == 0 || kinds["new-address"] == 0 || !strings.Contains(r.stderr, "vaultdeck removes direct shares") ||
		!strings.Contains(r.stdout, sim.LeaverIP) {
		t.Errorf("offboarding kinds %v, stderr %q", kinds, r.stderr)
	}

	// A typo: an error with the close match, and no request.
	typo := who[:1] + "q" + who[2:]
	if r := vd("person", typo); r.code != ExitError || !strings.Contains(r.stderr, "is not in the access snapshot of") ||
		!strings.Contains(r.stderr, "did you mean "+who) || r.stdout != "" {
		t.Errorf("person %s: %d %q %q", typo, r.code, r.stdout, r.stderr)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("a typo made %d requests", n)
	}
}

func same(t *testing.T, what string, got, want []string) {
	t.Helper()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: the report has %q, the API %q", what, got, want)
	}
}
