package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestDebugLogsEveryRequest: --debug (or VAULTDECK_DEBUG) writes one line
// per request the command sends, on stderr or into --debug-file: method,
// path with the query's names only, status, bytes, duration; never the
// token, never a query's value; with =api the headers too, the
// Authorization one withheld. Without it, nothing.
func TestDebugLogsEveryRequest(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow}})
	tok := e.Sim.Token("admin")
	vd := func(vars map[string]string, args ...string) run {
		vars["VAULTDECK_TOKEN"], vars["VAULTDECK_BASE_URL"] = tok, e.URL
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	const fields = `msg=request method=GET path=\S+ status=200 bytes=[1-9]\d* duration=\S+`
	line := regexp.MustCompile(`(?m)^vaultdeck debug: time=\S+ ` + fields + `$`)
	fileLine := regexp.MustCompile(`(?m)^time=\S+ ` + fields + `$`)

	plain := vd(map[string]string{}, "projects", "--json")
	if plain.code != 0 || strings.Contains(plain.stderr, "debug") {
		t.Fatalf("without --debug: exit %d, stderr %q", plain.code, plain.stderr)
	}
	r := vd(map[string]string{}, "--debug", "projects", "--json")
	if r.code != 0 || r.stdout != plain.stdout || !line.MatchString(r.stderr) {
		t.Fatalf("--debug: exit %d, stderr %q; want a request line", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, tok) {
		t.Error("--debug wrote the token")
	}
	r = vd(map[string]string{"VAULTDECK_DEBUG": "1"}, "projects", "--json")
	if !line.MatchString(r.stderr) || !regexp.MustCompile(`\?page=&per_page="`).MatchString(r.stderr) {
		t.Errorf("VAULTDECK_DEBUG=1: stderr %q; want a request line with the query's names only", r.stderr)
	}
	r = vd(map[string]string{"VAULTDECK_DEBUG": "api"}, "projects", "--json")
	if !strings.Contains(r.stderr, "request_headers=") || !strings.Contains(r.stderr, "Authorization:[withheld]") || strings.Contains(r.stderr, tok) {
		t.Errorf("VAULTDECK_DEBUG=api: stderr %q; want the headers, Authorization withheld", r.stderr)
	}
	file := filepath.Join(t.TempDir(), "debug.log")
	r = vd(map[string]string{}, "--debug-file", file, "projects", "--json")
	got, _ := os.ReadFile(file)
	if r.code != 0 || strings.Contains(r.stderr, "debug") || !fileLine.Match(got) || bytes.Contains(got, []byte(tok)) {
		t.Errorf("--debug-file: exit %d, stderr %q, file %q", r.code, r.stderr, got)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the debug file's mode: %v %v; want 0600", fi.Mode(), err)
	}
	r = vd(map[string]string{}, "--debug-file", "/dev/full", "projects", "--json")
	if r.code == 0 || !strings.Contains(r.stderr, "debug") {
		t.Errorf("--debug-file /dev/full: exit %d, stderr %q; want a failure naming the debug log", r.code, r.stderr)
	}
}
