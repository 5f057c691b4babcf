package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

func fixedNow() time.Time { return time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC) }

type run struct {
	code           int
	stdout, stderr string
}

func newSimEnv(t *testing.T) (*sim.Server, func(stdin string, args ...string) run) {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow}})
	s := e.Sim
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	return s, func(stdin string, args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
}

func TestCommandsAgainstSim(t *testing.T) {
	s, vd := newSimEnv(t)
	r := vd("", "projects", "--json")
	var projects []map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &projects) != nil || len(projects) == 0 || projects[0]["files_count"] == nil {
		t.Fatalf("projects --json: %d %q %q", r.code, r.stdout[:min(200, len(r.stdout))], r.stderr)
	}
	pid := projects[len(projects)-1]["id"].(string)
	r = vd("", "--json", "files", pid)
	var files []map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &files) != nil || len(files) == 0 {
		t.Fatalf("files: %d %q", r.code, r.stderr)
	}
	fid := files[0]["id"].(string)
	r = vd("", "files", pid, "--status", "ready_to_query,processing")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "NAME") {
		t.Fatalf("files table: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if strings.ContainsRune(r.stdout, '\x1b') {
		t.Error("escape sequence reached the table")
	}
	r = vd("", "projects")
	if r.code != 0 || strings.ContainsRune(r.stdout, '\x1b') || !strings.Contains(r.stdout, "UPDATED (UTC)") {
		t.Errorf("projects table: %d %q", r.code, r.stderr)
	}
	r = vd("", "users", pid, "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"access_level"`) {
		t.Errorf("users: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("", "recycle-bin", "--json")
	var rb []map[string]any // one array, as every listing (gh's convention)
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rb) != nil || len(rb) == 0 {
		t.Errorf("recycle-bin: %d %q", r.code, r.stderr)
	}
	if r = vd("", "recycle-bin"); r.code != 0 || !strings.Contains(r.stdout, "PURGE SCHEDULED (UTC)") {
		t.Errorf("recycle-bin table: %q", r.stderr)
	}
	r = vd("", "audit", "--limit", "5", "--json")
	var audit []map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &audit) != nil || len(audit) != 5 {
		t.Errorf("audit: %d %q", r.code, r.stderr)
	}
	if r = vd("", "audit", "--limit", "3"); r.code != 0 || strings.Count(r.stdout, "\n") != 4 {
		t.Errorf("audit table: %q %q", r.stdout, r.stderr)
	}
	if r = vd("", "whoami"); r.code != 0 || !strings.Contains(r.stdout, "admin") {
		t.Errorf("whoami: %q %q", r.stdout, r.stderr)
	}
	// status: all found -> 0; one unknown -> 3; BOM + CRLF + blanks on stdin.
	if r = vd("", "status", fid, "--json"); r.code != 0 || !strings.Contains(r.stdout, `"file_id"`) {
		t.Errorf("status: %d %q", r.code, r.stderr)
	}
	missing := "00000000-0000-4000-8000-000000000000"
	stdin := "\xef\xbb\xbf" + fid + "\r\n\r\n" + missing + "\r\n"
	r = vd(stdin, "status", "-")
	if r.code != ExitPartial || !strings.Contains(r.stdout, "not_found") || !strings.Contains(r.stderr, "1 of 2") {
		t.Errorf("status stdin: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd(stdin, "status", "--json", "-", fid+","+fid)
	var recs []map[string]any
	if r.code != ExitPartial || json.Unmarshal([]byte(r.stdout), &recs) != nil || len(recs) != 4 || recs[0]["file_id"] != fid {
		t.Errorf("status mixed: %d %q", r.code, r.stdout)
	}
	_ = s
}

func TestExitCodesAndUsage(t *testing.T) {
	_, vd := newSimEnv(t)
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"bogus"}, ExitUsage, "unknown command"},
		{[]string{"status"}, ExitUsage, "at least one file ID"},
		{[]string{"users"}, ExitUsage, "exactly one project ID"},
		{[]string{"projects", "--nope"}, ExitUsage, "unknown flag --nope"},
		{[]string{"--region"}, ExitUsage, "needs a value"},
		{[]string{"users", "no-such-project"}, ExitUsage, "is not a project ID"},
		{[]string{"users", "00000000-0000-4000-8000-000000000000"}, ExitError, "not found"},
		{[]string{"sim"}, ExitError, "not available in this build"},
		{[]string{}, ExitError, "not available in this build"},
		{[]string{"--base-url", "http://example.com", "whoami"}, ExitError, "loopback"},
	}
	for _, tc := range cases {
		r := vd("", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.out) {
			t.Errorf("%v: %d %q", tc.args, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--json", "--help"}} {
		r := vd("", args...)
		if r.code != 0 {
			t.Errorf("%v: %d", args, r.code)
		}
		for _, name := range []string{"projects", "users", "files", "status", "recycle-bin", "audit", "whoami", "sim", "demo", "login", "logout", "profiles", "open the console"} {
			if !strings.Contains(r.stdout, name) {
				t.Errorf("help lacks %s", name)
			}
		}
	}
}

func TestNoTokenAndLeadSeams(t *testing.T) {
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb}
	if code := Main(context.Background(), []string{"whoami"}, env); code != ExitError || !strings.Contains(errb.String(), "VAULTDECK_TOKEN") {
		t.Errorf("no token: %d %q", code, errb.String())
	}
	// The seams get the command line parsed: flags typed after the command
	// reach the simulator's options; globals before it reach the console.
	var gotSim sim.Flags
	var gotGlobals Globals
	env.Sim = func(ctx context.Context, f sim.Flags, _, _ io.Writer) int { gotSim = f; return 7 }
	env.Console = func(ctx context.Context, g Globals, f ConsoleFlags) int { gotGlobals = g; return 9 }
	if code := Main(context.Background(), []string{"--profile", "work", "sim", "--seed", "3", "--json"}, env); code != 7 || gotSim.Seed != 3 {
		t.Errorf("sim seam: %d %+v", code, gotSim)
	}
	if code := Main(context.Background(), []string{"--region", "eu"}, env); code != 9 || gotGlobals.Region != "eu" {
		t.Errorf("console seam: %d %+v", code, gotGlobals)
	}
}

func TestTokenNotInCLIOutput(t *testing.T) {
	_, vd := newSimEnv(t)
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		return map[string]string{"VAULTDECK_TOKEN": "tok-SECRET-123", "VAULTDECK_BASE_URL": "http://127.0.0.1:1"}[k]
	}}
	Main(context.Background(), []string{"whoami"}, env)
	if strings.Contains(out.String()+errb.String(), "SECRET") {
		t.Errorf("token leaked: %q", errb.String())
	}
	_ = vd
}
