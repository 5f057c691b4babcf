package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestAuditCommands: a question before any sync is answered by the
// service and says so; `audit sync` fills the mirror; the same question
// is then answered by the mirror with no request and says so; follow
// --once writes JSON Lines; bad bounds are refused by name.
func TestAuditCommands(t *testing.T) {
	var requests atomic.Int64
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow, AuditEntries: 3000},
		Wrap: func(next http.Handler) http.Handler { return countAudit(next, &requests) }})
	s := e.Sim
	dir := t.TempDir()
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1},
			OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(dir, "vaultdeck.db")) },
			Clock:     fixedClock{}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	q := []string{"audit", "--since", "2025-05-25", "--until", "2025-06-01", "--type", "AUTH:LOGIN", "--limit", "0", "--jsonl"}
	before := vd(q...)
	if before.code != 0 || before.stderr != "" { // the source is said on a terminal only (Answer.String, tested in api/audit)
		t.Fatalf("before sync: %d %q", before.code, before.stderr)
	}
	n := strings.Count(before.stdout, "\n")
	if n == 0 {
		t.Fatal("no login in the week asked about")
	}
	for _, line := range strings.Split(strings.TrimSpace(before.stdout), "\n") {
		var e struct{ Type, Timestamp string }
		if json.Unmarshal([]byte(line), &e) != nil || e.Type != "auth:login" || e.Timestamp < "2025-05-25" || e.Timestamp >= "2025-06-01" {
			t.Fatalf("an entry outside the question: %s", line)
		}
	}
	if r := vd("audit", "sync"); r.code != 0 || r.stderr != "" {
		t.Fatalf("sync: %d %q", r.code, r.stderr)
	}
	requests.Store(0)
	after := vd(q...)
	if after.code != 0 || after.stdout != before.stdout || requests.Load() != 0 || after.stderr != "" {
		t.Fatalf("after sync: %d, %d requests, same output %v, %q", after.code, requests.Load(), after.stdout == before.stdout, after.stderr)
	}
	out := filepath.Join(dir, "audit.jsonl")
	if r := vd("audit", "follow", "--out", out, "--once"); r.code != 0 {
		t.Fatalf("follow --once: %d %q", r.code, r.stderr)
	}
	data, _ := os.ReadFile(out)
	if got := bytes.Count(data, []byte("\n")); got < 3000 {
		t.Fatalf("follow wrote %d lines", got)
	}
	// to stdout with a checkpoint: a second run goes on after the first's
	// last entry (at least once; here, with nothing killed, exactly once)
	first := vd("audit", "follow", "--once", "--checkpoint", "siem")
	second := vd("audit", "follow", "--once", "--checkpoint", "siem")
	if first.code != 0 || second.code != 0 {
		t.Fatalf("follow --checkpoint: %d %q, %d %q", first.code, first.stderr, second.code, second.stderr)
	}
	a, b := strings.Count(first.stdout, "\n"), strings.Count(second.stdout, "\n")
	if a < 3000 || b == 0 || b > 5 || strings.Contains(first.stdout, strings.SplitN(second.stdout, "\n", 2)[0]) {
		t.Fatalf("first run %d lines, second %d (the second must hold only what came after the first)", a, b)
	}
	for _, tc := range []struct{ args, want string }{
		{"audit --since yesterday", "--since: not a date"},
		{"audit --since 2025-06-01 --until 2025-05-01", "must be before --until"},
		{"audit follow --out x --checkpoint y", "--checkpoint is for stdout"},
		{"audit follow --start middle", "--start must be earliest or latest"},
	} {
		if r := vd(strings.Fields(tc.args)...); r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: %d %q", tc.args, r.code, r.stderr)
		}
	}
}

type fixedClock struct{}

func (fixedClock) Now() time.Time { return fixedNow() }
func (fixedClock) Sleep(ctx context.Context, d time.Duration) error {
	return ctx.Err()
}

// countAudit counts the audit requests that reach h.
func countAudit(h http.Handler, n *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/v1/logs/") {
			n.Add(1)
		}
		h.ServeHTTP(w, r)
	})
}

// TestAuditKeepsWhatCameBeforeARefusedAnswer: when the service's answer is
// refused part way (here a listing that ignores from and so goes back),
// the entries already read and checked are printed before the error, as
// every listing says how far it got; they were dropped with the batch.
func TestAuditKeepsWhatCameBeforeARefusedAnswer(t *testing.T) {
	ignoreFrom := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v1/logs/audit" {
				q := r.URL.Query()
				q.Del("from")
				r.URL.RawQuery = q.Encode()
			}
			next.ServeHTTP(w, r)
		})
	}
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow, AuditEntries: 50}, Wrap: ignoreFrom})
	s := e.Sim
	var out, errb bytes.Buffer
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1},
		OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(t.TempDir(), "vaultdeck.db")) },
		Clock:     fixedClock{}}
	code := Main(context.Background(), []string{"audit", "--oldest", "--limit", "0", "--jsonl"}, env)
	if code != ExitError || !strings.Contains(errb.String(), "/api/v1/logs/audit") {
		t.Fatalf("exit %d, stderr %q: want a failure naming the listing", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if out.Len() == 0 || len(lines) != 1 {
		t.Fatalf("stdout %q: want the one entry read before the listing went back", out.String())
	}
	// newest first (the default) reads the same listing back in time: it
	// stops there too, naming it
	out.Reset()
	errb.Reset()
	if code := Main(context.Background(), []string{"audit", "--limit", "0", "--jsonl"}, env); code != ExitError || !strings.Contains(errb.String(), "/api/v1/logs/audit") {
		t.Fatalf("newest first: exit %d, stderr %q: want a failure naming the listing", code, errb.String())
	}
}
