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

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// newAccessEnv runs commands against the large simulator, counting every
// request it receives.
func newAccessEnv(t *testing.T) (*sim.Server, *atomic.Int64, func(args ...string) run) {
	t.Helper()
	var requests atomic.Int64
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Scale: sim.ScaleLarge, NoRateLimit: true, SharingChanges: -1},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				next.ServeHTTP(w, r)
			})
		}})
	s := e.Sim
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	return s, &requests, func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
}

func TestAccessCommands(t *testing.T) {
	s, requests, vd := newAccessEnv(t)
	if r := vd("access", "user", "a@b.c"); r.code != ExitError || !strings.Contains(r.stderr, "no finished access snapshot yet; run `vaultdeck access crawl`") {
		t.Fatalf("user before any crawl: %d %q", r.code, r.stderr)
	}
	r := vd("--max-rate", "100000", "access", "crawl", "--json")
	var sn store.AccessSnapshot
	if err := json.Unmarshal([]byte(r.stdout), &sn); err != nil || r.code != ExitOK || sn.Projects != 320 || sn.Requests != 324 {
		t.Fatalf("crawl: %d %v %q %q", r.code, err, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "vaultdeck access crawl: 0/320 projects, read 0/320 this run, 4 requests, ETA") ||
		!strings.Contains(r.stderr, "320/320 projects, read 320/320 this run, 324 requests\n") {
		t.Errorf("progress lines:\n%s", r.stderr)
	}
	// Queries answer from the snapshot: not one request.
	requests.Store(0)
	checkAccessPeople(t, requests, vd)
	var grants []store.AccessGrant
	pid := s.Projects()[0].ID
	r = vd("access", "project", pid, "--json")
	if err := json.Unmarshal([]byte(r.stdout), &grants); err != nil || len(grants) == 0 {
		t.Fatalf("project: %d %v %q", r.code, err, r.stderr)
	}
	email := grants[0].Email
	r = vd("access", "user", strings.ToUpper(email), "--json")
	var mine []store.AccessGrant
	if err := json.Unmarshal([]byte(r.stdout), &mine); err != nil || len(mine) == 0 {
		t.Fatalf("user: %d %v %q", r.code, err, r.stderr)
	}
	for _, g := range mine {
		if !strings.EqualFold(g.Email, email) || g.AccessLevel == "" || g.ProjectName == "" {
			t.Errorf("grant %+v", g)
		}
	}
	r = vd("access", "user", email)
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, "PROJECT") || strings.Count(r.stdout, "\n") != len(mine)+1 ||
		!strings.Contains(r.stderr, "from access snapshot 1, finished") {
		t.Errorf("user table: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("access", "user", email, "--csv")
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || r.code != ExitOK || len(recs) != len(mine)+1 || !slices.Equal(recs[0], []string{"PROJECT", "ACCESS", "HOW", "PROJECT ID"}) {
		t.Fatalf("user --csv: %d %v %q", r.code, err, r.stdout)
	}
	for i, g := range mine {
		// no projects listing is cached here: how is unknown, and said so
		if recs[i+1][3] != g.ProjectID || recs[i+1][1] != g.AccessLevel || recs[i+1][2] != "unknown" {
			t.Errorf("csv record %d %v, want %+v", i+1, recs[i+1], g)
		}
	}
	// Someone the snapshot does not name is an error, not "reaches no
	// project" (issue 29 item 6): a typo offers the close matches.
	typo := email[:1] + "x" + email[2:]
	for _, args := range [][]string{{typo}, {typo, "--csv"}, {typo, "--json"}} {
		r = vd(append([]string{"access", "user"}, args...)...)
		if r.code != ExitError || r.stdout != "" || !strings.Contains(r.stderr, typo+" is not in the access snapshot of ") ||
			!strings.Contains(r.stderr, "did you mean "+email) {
			t.Errorf("access user %v: %d %q %q, want exit 1 offering %s", args, r.code, r.stdout, r.stderr, email)
		}
	}
	if r = vd("access", "user", "nobody@example.com"); r.code != ExitError || !strings.Contains(r.stderr, "nobody@example.com is not in the access snapshot of ") ||
		strings.Contains(r.stderr, "did you mean") {
		t.Errorf("a stranger: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = vd("access", "snapshots"); r.code != ExitOK || !strings.Contains(r.stdout, "REQUESTS") || !strings.Contains(r.stdout, "324") {
		t.Errorf("snapshots: %q %q", r.stdout, r.stderr)
	}
	if r = vd("access", "diff"); r.code != ExitError || !strings.Contains(r.stderr, "a diff needs two finished access snapshots; this profile has 1") {
		t.Errorf("diff with one snapshot: %d %q", r.code, r.stderr)
	}
	if n := requests.Load(); n != 0 {
		t.Fatalf("queries made %d requests; they must answer from the snapshot", n)
	}

	// A grant, then a daily crawl and its diff.
	outsider := outsiderOf(t, vd, s, pid)
	if err := s.Share(pid, outsider, "MANAGE"); err != nil {
		t.Fatal(err)
	}
	requests.Store(0)
	if r = vd("--max-rate", "100000", "access", "crawl"); r.code != ExitOK || !strings.Contains(r.stdout, "snapshot 2: 320 projects (1 read, 319 unchanged since the last snapshot)") {
		t.Fatalf("daily crawl: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if n := requests.Load(); n != 5 {
		t.Errorf("daily crawl made %d requests, want 5 (4 listing pages, 1 changed project)", n)
	}
	r = vd("access", "diff", "1", "2", "--csv")
	if recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll(); err != nil || len(recs) != 2 || recs[1][0] != "gained" || recs[1][4] != "MANAGE" {
		t.Errorf("diff --csv: %v %q", err, r.stdout)
	}
	r = vd("access", "diff", "1", "2")
	if r.code != ExitOK || strings.Count(r.stdout, "\n") != 2 || !strings.Contains(r.stdout, "gained") || !strings.Contains(strings.ToLower(r.stdout), strings.ToLower(outsider)) ||
		!strings.Contains(r.stdout, "MANAGE") {
		t.Errorf("diff: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// outsiderOf returns the e-mail of someone with access to some project in
// the last snapshot but not to project pid.
func outsiderOf(t *testing.T, vd func(args ...string) run, s *sim.Server, pid string) string {
	t.Helper()
	grantsOf := func(id string) (gs []store.AccessGrant) {
		json.Unmarshal([]byte(vd("access", "project", id, "--json").stdout), &gs)
		return gs
	}
	has := map[string]bool{}
	for _, g := range grantsOf(pid) {
		has[strings.ToLower(g.Email)] = true
	}
	for _, p := range s.Projects() {
		for _, g := range grantsOf(p.ID) {
			if !has[strings.ToLower(g.Email)] {
				return g.Email
			}
		}
	}
	t.Fatal("everyone can reach the project")
	return ""
}

func TestAccessUsageErrors(t *testing.T) {
	_, _, vd := newAccessEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"access"}, "vaultdeck access: give a subcommand: apply"},
		{[]string{"access", "grant"}, `unknown subcommand "grant"`},
		{[]string{"access", "user"}, "give exactly one e-mail address"},
		{[]string{"access", "user", "bob"}, "give exactly one e-mail address"},
		{[]string{"access", "project", "nope"}, `"nope" is not a project ID`},
		{[]string{"access", "diff", "1", "x"}, `"x" is not a snapshot number`},
		{[]string{"access", "diff", "1", "2", "3"}, "give at most two snapshot numbers"},
	} {
		r := vd(tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%v: %d %q, want exit 2 and %q in one line", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestAccessCrawlStoppedExits3: a crawl whose context ends (Ctrl-C,
// SIGTERM) exits 3 saying how much is kept and to run it again; the next
// run finishes with only the rest.
func TestAccessCrawlStoppedExits3(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var users atomic.Int64
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Scale: sim.ScaleLarge, NoRateLimit: true, SharingChanges: -1},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/users") && users.Add(1) == 30 {
					cancel() // the 30th read is cut off, as by Ctrl-C
				}
				next.ServeHTTP(w, r)
			})
		}})
	s := e.Sim
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(ctx context.Context, args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		return run{Main(ctx, args, env), out.String(), errb.String()}
	}
	r := vd(ctx, "--max-rate", "1000", "access", "crawl")
	if r.code != ExitPartial || !strings.Contains(r.stderr, "of 320 projects are read and kept; run `vaultdeck access crawl` again to resume") {
		t.Fatalf("stopped crawl: %d %q", r.code, r.stderr)
	}
	users.Store(1000)
	before := users.Load()
	r = vd(context.Background(), "--max-rate", "1000", "access", "crawl")
	if r.code != ExitOK || !strings.Contains(r.stdout, "snapshot 1: 320 projects (320 read") {
		t.Fatalf("resume: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if n := users.Load() - before; n < 290 || n > 291 {
		t.Errorf("the resume read %d projects, want the 290 or 291 not kept", n)
	}
}
