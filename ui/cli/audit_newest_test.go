package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// auditAsked records the audit requests that reach h: path and query.
type auditAsked struct {
	mu  sync.Mutex
	all []url.URL
}

func (a *auditAsked) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/v1/logs/") {
			a.mu.Lock()
			a.all = append(a.all, *r.URL)
			a.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

func (a *auditAsked) take() []url.URL {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.all
	a.all = nil
	return out
}

type auditLine struct{ ID, Type, Timestamp string }

func auditLines(t *testing.T, out string) []auditLine {
	t.Helper()
	var es []auditLine
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e auditLine
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not an entry: %q", line)
		}
		es = append(es, e)
	}
	return es
}

// TestAuditListsNewestFirstWithoutAMirror: on a fresh machine (no
// mirror), `audit --limit 5` and `audit --newest --limit 5` print the five
// newest entries newest first (they printed the log's first five, and
// --newest refused without a mirror); `--oldest` and `--since` read
// forward; `--type T --limit 1` for a type first seen at the end costs at
// most 3 requests, each carrying log_type. Pasted the default change is
// in README's audit section.
func TestAuditListsNewestFirstWithoutAMirror(t *testing.T) {
	var asked auditAsked
	srv := simtest.Start(t, simtest.Options{
		Sim:  sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow, AuditEntries: 3000},
		Wrap: asked.wrap,
	})
	s, c := srv.Sim, srv.Client
	ps, err := c.ProjectsPage(context.Background(), api.ProjectQuery{})
	if err != nil || len(ps.Projects) == 0 {
		t.Fatal(err)
	}
	if _, err := c.DeleteProject(context.Background(), ps.Projects[0].ID); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": srv.URL}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		dir := t.TempDir() // a fresh machine each time: no mirror
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1},
			OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(dir, "vaultdeck.db")) },
			Clock:     fixedClock{}}
		code := Main(context.Background(), append(args, "--jsonl"), env)
		return run{code, out.String(), errb.String()}
	}
	asked.take()
	all := vd("audit", "--oldest", "--limit", "0")
	log := auditLines(t, all.stdout)
	if all.code != 0 || len(log) < 3000 {
		t.Fatalf("the whole log oldest first: %d, %d entries, %q", all.code, len(log), all.stderr)
	}
	if !sortedBy(log, func(a, b auditLine) bool { return a.ID < b.ID }) {
		t.Fatal("--oldest is not in the log's order")
	}
	asked.take()
	for _, args := range [][]string{{"audit", "--limit", "5"}, {"audit", "--newest", "--limit", "5"}} {
		r := vd(args...)
		got := auditLines(t, r.stdout)
		if r.code != 0 || len(got) != 5 {
			t.Fatalf("%v: %d, %d entries, %q", args, r.code, len(got), r.stderr)
		}
		// newest first, and nothing newer than the first but this test's reads
		if !sortedBy(got, func(a, b auditLine) bool { return a.ID > b.ID }) || got[0].ID < log[len(log)-1].ID {
			t.Errorf("%v: %v is not the newest five, newest first (the log ends at %s)", args, got, log[len(log)-1].ID)
		}
		if n := len(asked.take()); n > 4 {
			t.Errorf("%v: %d audit requests, want at most 4", args, n)
		}
	}
	if r := vd("audit", "--oldest", "--limit", "5"); !slices.Equal(auditLines(t, r.stdout), log[:5]) {
		t.Errorf("--oldest --limit 5: %q", r.stdout)
	}
	since := log[len(log)/2].Timestamp
	if r := vd("audit", "--since", since[:19]+"Z", "--limit", "5"); r.code != 0 {
		t.Errorf("--since: %d %q", r.code, r.stderr)
	} else if got := auditLines(t, r.stdout); !sortedBy(got, func(a, b auditLine) bool { return a.ID < b.ID }) || got[0].Timestamp < since[:19] {
		t.Errorf("--since %s does not read forward from it: %v", since, got)
	}
	asked.take()
	for _, args := range [][]string{{"audit", "--type", "api:vault_delete_project", "--limit", "1"}, {"audit", "--type", "api:vault_delete_project", "--limit", "1", "--oldest"}} {
		r := vd(args...)
		if got := auditLines(t, r.stdout); r.code != 0 || len(got) != 1 || got[0].Type != "api:vault_delete_project" {
			t.Errorf("%v: %d %q %q", args, r.code, r.stdout, r.stderr)
		}
		reqs := asked.take()
		if len(reqs) > 3 {
			t.Errorf("%v: %d audit requests, want at most 3", args, len(reqs))
		}
		for _, u := range reqs {
			if u.Query().Get("log_type") != "api:vault_delete_project" {
				t.Errorf("%v: %s?%s was sent without log_type", args, u.Path, u.RawQuery)
			}
		}
	}
	if r := vd("audit", "--newest", "--oldest"); r.code != ExitUsage || !strings.Contains(r.stderr, "--newest") {
		t.Errorf("--newest --oldest: %d %q", r.code, r.stderr)
	}
}

func sortedBy(es []auditLine, before func(a, b auditLine) bool) bool {
	for i := 1; i < len(es); i++ {
		if !before(es[i-1], es[i]) {
			return false
		}
	}
	return true
}
