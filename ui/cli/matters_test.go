package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// ttyReader stands in for a terminal on stdin.
type ttyReader struct{ *strings.Reader }

func (ttyReader) IsTerminal() bool { return true }

type mattersEnv struct {
	s        *sim.Server
	dir      string
	requests atomic.Int64
	vd       func(stdin any, args ...string) run
}

func newMattersEnv(t *testing.T) *mattersEnv {
	t.Helper()
	e := &mattersEnv{dir: t.TempDir()}
	st := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api/v2/matters" {
					e.requests.Add(1)
				}
				next.ServeHTTP(w, r)
			})
		}})
	e.s = st.Sim
	dbPath := filepath.Join(e.dir, "vaultdeck.db")
	vars := map[string]string{"VAULTDECK_TOKEN": e.s.Token("admin"), "VAULTDECK_BASE_URL": st.URL}
	e.vd = func(stdin any, args ...string) run {
		var out, errb bytes.Buffer
		var in = any(strings.NewReader(""))
		switch v := stdin.(type) {
		case string:
			in = strings.NewReader(v)
		case ttyReader:
			in = v
		}
		env := Env{Stdin: in.(interface{ Read([]byte) (int, error) }), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Matters: -1},
			OpenStore: func() (*store.Store, error) { return store.Open(dbPath) }}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	return e
}

func (e *mattersEnv) file(t *testing.T, name, body string) string {
	p := filepath.Join(e.dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func (e *mattersEnv) live(n int) []sim.MatterInfo {
	var out []sim.MatterInfo
	for _, m := range e.s.Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(out) < n {
			out = append(out, m)
		}
	}
	return out
}

func spreadsheet(ms []sim.MatterInfo) string {
	var b strings.Builder
	b.WriteString("\uFEFFClient_ID,Matter_ID,Description\r\n")
	for _, m := range ms {
		b.WriteString(m.ClientID + ",\"" + m.MatterID + "\",\"closed, \"\"archived\"\"\"\r\n\r\n")
	}
	b.WriteString(sim.LinkedClientID + "," + sim.LinkedMatterID + ",linked\r\n")
	b.WriteString(" ,X,empty client\r\n")
	return b.String()
}

func TestMattersDeleteDryRunSendsNothing(t *testing.T) {
	e := newMattersEnv(t)
	p := e.file(t, "m.csv", spreadsheet(e.live(2)))
	r := e.vd("", "--json", "matters", "delete", p, "--dry-run")
	var pv map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &pv) != nil {
		t.Fatalf("%d %q %q", r.code, r.stdout, r.stderr)
	}
	if pv["pairs"] != 4.0 || pv["to_send"] != 3.0 || pv["requests"] != 1.0 || pv["encoding"] != "UTF-8 with BOM" {
		t.Errorf("preview %v", pv)
	}
	if rej := pv["refused"].([]any); len(rej) != 1 || rej[0].(map[string]any)["code"] != "invalid_client_id" {
		t.Errorf("refused %v", pv["refused"])
	}
	r = e.vd("", "matters", "delete", "--dry-run", p)
	if r.code != 0 || !strings.Contains(r.stdout, "to send   3 in 1 request") || !strings.Contains(r.stdout, "ignored   columns Description") {
		t.Errorf("table preview: %q", r.stdout)
	}
	if e.requests.Load() != 0 {
		t.Fatalf("a dry run sent %d requests", e.requests.Load())
	}
}

func TestMattersDeleteNeedsConfirmation(t *testing.T) {
	e := newMattersEnv(t)
	in := spreadsheet(e.live(1))
	r := e.vd(in, "matters", "delete", "-")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("stdin data without --yes: %d %q", r.code, r.stderr)
	}
	p := e.file(t, "m.csv", in)
	r = e.vd(ttyReader{strings.NewReader("3\n")}, "matters", "delete", p)
	if r.code != ExitError || !strings.Contains(r.stderr, "not confirmed") {
		t.Fatalf("wrong count: %d %q", r.code, r.stderr)
	}
	if e.requests.Load() != 0 {
		t.Fatal("sent without confirmation")
	}
	r = e.vd(ttyReader{strings.NewReader("2\n")}, "matters", "delete", p)
	if r.code != ExitPartial || !strings.Contains(r.stderr, "Type 2") || e.requests.Load() != 1 {
		t.Fatalf("typed count: %d %q", r.code, r.stderr)
	}
	// The file on stdin with --yes: read, sent, and named (stdin) on the receipt.
	r = e.vd(in, "matters", "delete", "-", "--yes", "--json")
	if r.code != ExitPartial || e.requests.Load() != 2 || !strings.Contains(r.stdout, `"already_absent": 1`) {
		t.Fatalf("stdin: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = e.vd("", "matters", "receipts"); !strings.Contains(r.stdout, "(stdin)") {
		t.Fatalf("receipts: %q", r.stdout)
	}
}

// The whole story: delete from a spreadsheet export, the receipt matches the
// service's answer, re-running is safe, restore brings the matters back.
func TestMattersDeleteReceiptRestore(t *testing.T) {
	e := newMattersEnv(t)
	ms := e.live(2)
	p := e.file(t, "export.csv", spreadsheet(ms))
	r := e.vd("", "matters", "delete", p, "--yes")
	if r.code != ExitPartial {
		t.Fatalf("exit %d (want 3: a pair is in errors) %q", r.code, r.stderr)
	}
	for _, want := range []string{"deleted", "blocked_by_ethical_wall", "invalid_client_id"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("outcomes lack %s:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "deleted 2, error 2; receipt 1") || !strings.Contains(r.stderr, "matters restore --receipt 1") {
		t.Errorf("summary %q", r.stderr)
	}
	r = e.vd("", "matters", "receipts", "--json")
	var list []map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list) != 1 {
		t.Fatalf("receipts: %d %q", r.code, r.stdout)
	}
	c := list[0]["counts"].(map[string]any)
	if list[0]["file"] != "export.csv" || c["deleted"] != 2.0 || c["error"] != 2.0 || list[0]["status"] != "complete" || len(list[0]["sha256"].(string)) != 64 {
		t.Errorf("receipt %v", list[0])
	}
	r = e.vd("", "matters", "receipt", "1", "--export", "csv")
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if r.code != 0 || err != nil || len(rows) != 5 || rows[1][0] != "2" || rows[1][3] != "deleted" || rows[4][4] != "invalid_client_id" {
		t.Fatalf("export: %d %v %q", r.code, err, r.stdout)
	}
	// Re-running is safe: already absent.
	r = e.vd("", "matters", "delete", p, "--yes", "--json")
	var out map[string]any
	if json.Unmarshal([]byte(r.stdout), &out) != nil || out["counts"].(map[string]any)["already_absent"] != 2.0 {
		t.Fatalf("re-run: %q", r.stdout)
	}
	r = e.vd("", "matters", "restore", "--receipt", "1", "--dry-run")
	if r.code != 0 || !strings.Contains(r.stdout, "deleted 2 matters") || e.requests.Load() != 2 {
		t.Fatalf("restore dry run: %d %q", r.code, r.stdout)
	}
	r = e.vd("", "matters", "restore", "--receipt", "1", "--yes")
	if r.code != 0 || !strings.Contains(r.stderr, "restored 2") {
		t.Fatalf("restore: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for _, m := range e.s.Matters() {
		for _, x := range ms {
			if m.ServiceID == x.ServiceID && m.Deleted {
				t.Errorf("not restored: %+v", m)
			}
		}
	}
	r = e.vd("", "--json", "matters", "receipt", "3")
	if json.Unmarshal([]byte(r.stdout), &out) != nil || out["restore_of"] != 1.0 || len(out["items"].([]any)) != 2 {
		t.Fatalf("restore receipt: %q", r.stdout)
	}
}

func TestMattersMalformedLineStopsEverything(t *testing.T) {
	e := newMattersEnv(t)
	p := e.file(t, "bad.csv", "client_id,matter_id\nC,M\n\"C2,M2\n")
	r := e.vd("", "matters", "delete", p, "--yes")
	if r.code != ExitError || !strings.Contains(r.stderr, "bad.csv: line 3:") || !strings.Contains(r.stderr, "nothing was sent") || e.requests.Load() != 0 {
		t.Fatalf("%d %q", r.code, r.stderr)
	}
}

func TestMatters401NamesPermission(t *testing.T) {
	e := newMattersEnv(t)
	p := e.file(t, "m.csv", "C,M\n")
	var out, errb bytes.Buffer
	srv := simtest.Start(t, simtest.Options{Server: e.s})
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": e.s.Token("no-matters"), "VAULTDECK_BASE_URL": srv.URL}[k]
		},
		OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(e.dir, "x.db")) }}
	code := Main(context.Background(), []string{"matters", "delete", p, "--yes"}, env)
	if code != ExitError || !strings.Contains(errb.String(), "Client matters admin") {
		t.Fatalf("%d %q", code, errb.String())
	}
}

// instantClock sleeps by moving its own time forward.
type instantClock struct{ now time.Time }

func (c *instantClock) Now() time.Time { return c.now }
func (c *instantClock) Sleep(ctx context.Context, d time.Duration) error {
	c.now = c.now.Add(d)
	return ctx.Err()
}

// A wait for the client-matters budget is said on stderr, so a long run
// does not look hung.
func TestMattersDeleteSaysBudgetWaits(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow}})
	s := e.Sim
	var b strings.Builder
	for i := range api.MaxPairs + 1 {
		b.WriteString("C-" + strconv.Itoa(i) + ",M\n")
	}
	p := filepath.Join(t.TempDir(), "m.csv")
	os.WriteFile(p, []byte(b.String()), 0o600)
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string {
			return map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}[k]
		},
		Limits: api.Limits{Matters: 1}, Clock: &instantClock{now: fixedNow()},
		OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(t.TempDir(), "x.db")) }}
	code := Main(context.Background(), []string{"matters", "delete", p, "--yes"}, env)
	if code != 0 || !strings.Contains(errb.String(), "request 2/2") {
		t.Fatalf("%d %q", code, errb.String())
	}
	if !strings.Contains(errb.String(), "vaultdeck: waiting") {
		t.Fatalf("no wait line in %q", errb.String())
	}
}

func TestMattersUsage(t *testing.T) {
	e := newMattersEnv(t)
	if r := e.vd("", "matters"); r.code != ExitUsage || !strings.Contains(r.stderr, "| restore --receipt ID") {
		t.Fatalf("%d %q", r.code, r.stderr)
	}
	if r := e.vd("", "matters", "--help"); r.code != 0 || !strings.Contains(r.stdout, "matters delete FILE|-") {
		t.Fatalf("%d %q", r.code, r.stdout)
	}
	if r := e.vd("", "matters", "purge"); r.code != ExitUsage || !strings.Contains(r.stderr, `unknown subcommand "purge"`) {
		t.Fatalf("%d %q", r.code, r.stderr)
	}
}
