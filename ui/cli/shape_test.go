package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// shapeSim is a simulator with a small bin and a request counter.
func shapeSim(t *testing.T) (*atomic.Int64, func(args ...string) run) {
	t.Helper()
	var requests atomic.Int64
	e := simtest.Start(t, simtest.Options{
		Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				next.ServeHTTP(w, r)
			})
		},
	})
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	return &requests, func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }, Limits: simtest.Unlimited(), Clock: &simtest.Clock{Sim: e.Sim}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
}

// TestJQAndTemplateOnRecycleBin: the two commands print one name a
// line, the names of --json's items in order; --jsonl --template runs the
// template once per item.
func TestJQAndTemplateOnRecycleBin(t *testing.T) {
	_, vd := shapeSim(t)
	r := vd("recycle-bin", "--json")
	var bin struct {
		Items []struct {
			VaultProject struct{ Name string } `json:"vault_project"`
		}
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &bin.Items) != nil || len(bin.Items) < 2 {
		t.Fatalf("--json: %d %q", r.code, r.stderr)
	}
	var want strings.Builder
	for _, it := range bin.Items {
		want.WriteString(it.VaultProject.Name + "\n")
	}
	for _, args := range [][]string{
		{"recycle-bin", "--jq", ".[] | .vault_project.name"},
		{"recycle-bin", "--template", `{{range .}}{{.vault_project.name}}{{"\n"}}{{end}}`},
		{"recycle-bin", "--jsonl", "--template", `{{.vault_project.name}}{{"\n"}}`},
		{"--json", "recycle-bin", "--jq", ".[] | .vault_project | .name"},
		{"recycle-bin", "--jq", ".[].vault_project.name"},
	} {
		r := vd(args...)
		if r.code != 0 || r.stdout != want.String() {
			t.Errorf("%q: exit %d %q\nstdout %q\nwant   %q", args, r.code, r.stderr, r.stdout, want.String())
		}
	}
	// Non-string results are compact JSON, one a line; a template's else
	// runs on an empty listing, and what follows the range once at the end.
	r = vd("recycle-bin", "--jq", ".[] | {n: .vault_project.name, f: .vault_project.files_count}")
	if lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n"); r.code != 0 || len(lines) != len(bin.Items) || !strings.HasPrefix(lines[0], `{"f":`) {
		t.Errorf("object results: %d %q", r.code, r.stdout)
	}
	r = vd("recycle-bin", "--name", "no such name at all", "--template", `{{range .}}x{{else}}none{{end}}|end{{"\n"}}`)
	if r.code != 0 || r.stdout != "none|end\n" {
		t.Errorf("empty listing: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestBadShapeIsUsageBeforeAnyRequest: a wrong expression or template, or
// --jq with --template or --csv, is exit 2 with one line, and the
// simulator saw no request.
func TestBadShapeIsUsageBeforeAnyRequest(t *testing.T) {
	requests, vd := shapeSim(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"recycle-bin", "--jq", ".foo |"}, `for --jq (not a jq expression`},
		{[]string{"recycle-bin", "--jq", "no_such_function(1)"}, `not a jq expression: function not defined`},
		{[]string{"recycle-bin", "--jq", "$undefined"}, `not a jq expression`},
		{[]string{"recycle-bin", "--template", "{{range .}}"}, `for --template (not a template`},
		{[]string{"recycle-bin", "--template", "{{color .}}"}, `function "color" not defined`},
		{[]string{"recycle-bin", "--jq", ".", "--template", "x"}, `--jq cannot be combined with --template`},
		{[]string{"recycle-bin", "--csv", "--jq", "."}, `--csv cannot be combined with --jq`},
		{[]string{"--template", "{{.x}}", "--csv", "whoami"}, `--csv cannot be combined with --template`},
	} {
		r := vd(tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests reached the simulator before the usage errors", n)
	}
}

// TestShapeSingleObjectWhole: a single object is shaped whole, with gh's
// helpers.
func TestShapeSingleObjectWhole(t *testing.T) {
	_, vd := shapeSim(t)
	r := vd("whoami", "--jq", ".email")
	if r.code != 0 || !strings.HasSuffix(r.stdout, "\n") || strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, "@") {
		t.Errorf("whoami --jq: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("whoami", "--template", `{{.name}}: {{join ", " .permissions}} {{len (pluck "x" (slice .permissions 0 0))}}{{"\n"}}`)
	if r.code != 0 || !strings.Contains(r.stdout, ": Vault API, ") || !strings.HasSuffix(r.stdout, " 0\n") {
		t.Errorf("whoami --template: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("projects", "--template", `{{range .}}{{tablerow .name (timefmt "2006" .updated_at)}}{{end}}`)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != 0 || len(lines) < 2 {
		t.Fatalf("tablerow: %d %q %q", r.code, r.stdout, r.stderr)
	}
	width := ansi.StringWidth(lines[0]) // the year column lines up on every row
	for _, l := range lines {
		if ansi.StringWidth(l) != width {
			t.Errorf("tablerow columns do not line up:\n%s", r.stdout)
			break
		}
	}
}

// A bin served by hand: item 1's vault_project is a string, names carry
// escape sequences and the token (raw and as \u escapes).
const hostileBin = `{"total":3,"items":[
{"id":"e0","vault_project":{"name":"Alpha \u001b]52;c;aGk=\u0007tok-SECRET-123 \u009b2J"}},
{"id":"e1","vault_project":"just a string"},
{"id":"e2","vault_project":{"name":"never reached; tok\u002dSECRET\u002d123"}}]}`

// TestJQRuntimeErrorNamesItem: an expression failing on item 1 prints item
// 0, then one line naming item 1, exit 1.
func TestJQRuntimeErrorNamesItem(t *testing.T) {
	r := runAgainst(t, jsonBody(hostileBin), "recycle-bin", "--jq", ".[] | .vault_project.name")
	if r.code != ExitError || strings.Count(r.stdout, "\n") != 1 || !strings.HasPrefix(r.stdout, "Alpha ") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "--jq failed on item 1") || !strings.Contains(r.stderr, "expected an object but got: string") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr %q", r.stderr)
	}
	r = runAgainst(t, jsonBody(hostileBin), "recycle-bin", "--template", `{{range .}}{{.vault_project.name}}{{"\n"}}{{end}}`)
	if r.code != ExitError || !strings.Contains(r.stderr, "--template failed on item 1") {
		t.Errorf("template: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestShapedOutputIsSafe: raw strings lose escape sequences and controls;
// the token is never printed, whatever the expression does with it; $ENV
// and env are empty.
func TestShapedOutputIsSafe(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte("tok-SECRET-123"))
	for _, expr := range []string{
		".[] | .vault_project.name?", ".[] | .vault_project.name? | ascii_downcase", ".[] | .vault_project.name? | @base64", ".[] | .vault_project.name? | explode",
		".[] | .vault_project.name? | split(\"\") | join(\" \")", ".[] | [.vault_project.name?]", "$ENV.VAULTDECK_TOKEN, env.VAULTDECK_TOKEN, $ENV",
		"map(.vault_project.name?)", "[.[].vault_project.name?] | join(\" \")", "sort_by(.id) | map(.vault_project.name? | @base64)",
	} {
		r := runAgainst(t, jsonBody(hostileBin), "recycle-bin", "--jq", expr)
		all := r.stdout + r.stderr
		if r.code != 0 || strings.Contains(all, "SECRET") || strings.Contains(all, "S E C R E T") || strings.Contains(all, b64[:12]) ||
			strings.ContainsAny(r.stdout, "\x1b\x07\u009b") || strings.Contains(r.stdout, "116,111,107,45,83") {
			t.Errorf("%s: exit %d %q %q", expr, r.code, r.stdout, r.stderr)
		}
	}
	r := runAgainst(t, jsonBody(hostileBin), "recycle-bin", "--template", `{{range .}}{{.id}}	{{.vault_project}}{{"\n"}}{{end}}`)
	if r.code != 0 || strings.Contains(r.stdout, "SECRET") || strings.ContainsAny(r.stdout, "\x1b\x07\u009b") || !strings.Contains(r.stdout, "e1\tjust a string\n") {
		t.Errorf("template: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// TestEveryJSONCommandHasJQ walks the command tree: a command that takes
// --json takes --jq and --template too, so a later command cannot miss
// them.
func TestEveryJSONCommandHasJQ(t *testing.T) {
	r := newTree(Env{})
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		if c.Flag("json") != nil {
			n++
			jq, tpl := c.Flag("jq"), c.Flag("template")
			if jq == nil || tpl == nil {
				t.Errorf("%s has --json but not --jq and --template", c.CommandPath())
				return
			}
			root := c.Root().PersistentFlags()
			if jq != root.Lookup("jq") || tpl != root.Lookup("template") {
				t.Errorf("%s has a --jq or --template of its own, not the shaper's", c.CommandPath())
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(r.newRoot())
	if n < 10 {
		t.Fatalf("only %d commands with --json found: the walk is broken", n)
	}
}
