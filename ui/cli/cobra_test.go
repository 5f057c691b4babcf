package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// countingEnv runs the command line against a server that counts the
// requests reaching it: a usage error must cost none.
func countingEnv(t *testing.T) (*atomic.Int64, func(args ...string) run) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, "{}", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	vars := map[string]string{"VAULTDECK_TOKEN": "tok", "VAULTDECK_BASE_URL": srv.URL, "VAULTDECK_HOME": t.TempDir()}
	return &n, func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
}

// oneDash finds a Go-style flag in help text: "-limit" with one dash.
var oneDash = regexp.MustCompile(`(?m)(^|\s)-[a-z][a-z-]+`)

// TestHelpAuditIsFull: `vaultdeck help audit` showed only a usage line and
// `vaultdeck audit --help` printed Go-style "-limit N" with one dash. Both
// now print the same full help: every flag with two dashes, the globals,
// the subcommands; `help audit` then goes on with the audit help topic.
func TestHelpAuditIsFull(t *testing.T) {
	_, vd := countingEnv(t)
	a, b := vd("help", "audit"), vd("audit", "--help")
	if a.code != 0 || b.code != 0 || !strings.HasPrefix(a.stdout, b.stdout) {
		t.Fatalf("help audit (%d) and audit --help (%d) differ:\n%s\n---\n%s", a.code, b.code, a.stdout, b.stdout)
	}
	for _, want := range []string{"--since T", "--until T", "--type T", "--user EMAIL", "--ip ADDR", "--grep TEXT", "--limit N", "--newest",
		"sync", "follow", "--json", "--jsonl", "--csv", "--profile NAME", "--timeout"} {
		if !strings.Contains(a.stdout, want) {
			t.Errorf("help audit lacks %q:\n%s", want, a.stdout)
		}
	}
	if m := oneDash.FindString(a.stdout); m != "" {
		t.Errorf("one-dash flag %q in:\n%s", m, a.stdout)
	}
}

// TestEveryCommandsHelpListsEveryFlag walks the whole tree: each command's
// --help names each of its flags (and the globals) with two dashes.
func TestEveryCommandsHelpListsEveryFlag(t *testing.T) {
	_, vd := countingEnv(t)
	r := newTree(Env{})
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.Fields(commandName(c))
		got := vd(append(path, "--help")...)
		if got.code != 0 {
			t.Errorf("%v --help: %d %q", path, got.code, got.stderr)
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(got.stdout, "--"+f.Name) {
				t.Errorf("%v --help lacks --%s", path, f.Name)
			}
		})
		if m := oneDash.FindString(got.stdout); m != "" {
			t.Errorf("%v --help: one-dash flag %q", path, m)
		}
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() {
				walk(s)
			}
		}
	}
	root := r.newRoot()
	root.ParseFlags(nil)
	walk(root)
}

// TestOutputFormatsExclude: --json --jsonl together was accepted silently
// (one of them won). Any two of --json, --jsonl and --csv are exit 2 in one
// line, before any request, wherever they are typed.
func TestOutputFormatsExclude(t *testing.T) {
	n, vd := countingEnv(t)
	for _, args := range [][]string{{"--json", "--jsonl", "projects"}, {"projects", "--jsonl", "--json"}, {"--jsonl", "audit", "--json"},
		{"--json", "--jsonl", "users"}} {
		r := vd(args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, "--json cannot be combined with --jsonl") ||
			strings.Count(r.stderr, "\n") != 1 || r.stdout != "" {
			t.Errorf("%q: %d %q %q", args, r.code, r.stdout, r.stderr)
		}
	}
	if n.Load() != 0 {
		t.Errorf("%d requests reached the server", n.Load())
	}
}

// TestEnumeratedValuesCheckedLocally: `files ID --status bogus` was sent to
// the server. Every enumerated flag is checked while parsing: exit 2, one
// line naming the value and the allowed ones, no request.
func TestEnumeratedValuesCheckedLocally(t *testing.T) {
	n, vd := countingEnv(t)
	id := "123e4567-e89b-12d3-a456-426614174000"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"files", id, "--status", "bogus"}, `vaultdeck files: invalid value "bogus" for --status (choose from uploaded, processing, ready_to_query`},
		{[]string{"files", id, "--status", "READY_TO_QUERY,bogus"}, `invalid value "READY_TO_QUERY,bogus" for --status`},
		{[]string{"upload", id, ".", "--mode", "merge"}, `vaultdeck upload: invalid value "merge" for --mode (choose from skip, replace, keep)`},
		{[]string{"--theme", "neon"}, `vaultdeck: invalid value "neon" for --theme (choose from auto,`},
		{[]string{"demo", "--open", "nowhere"}, `vaultdeck demo: invalid value "nowhere" for --open (choose from projects,`},
		{[]string{"--region", "mars", "projects"}, `vaultdeck projects: invalid value "mars" for --region (choose from us, eu, au)`},
		{[]string{"demo", "--scale", "huge"}, `invalid value "huge" for --scale (choose from small, large)`},
		{[]string{"serve", "--theme", "neon"}, `vaultdeck serve: invalid value "neon" for --theme (choose from auto,`},
	}
	for _, c := range cases {
		r := vd(c.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, c.want) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: %d %q, want %q", c.args, r.code, r.stderr, c.want)
		}
	}
	if r := vd("files", id, "--status", "Ready_To_Query,processing"); r.code != ExitError {
		t.Errorf("known statuses in any case: %d %q", r.code, r.stderr) // the counting server answers 500
	}
	if n.Load() == 0 {
		t.Fatal("the well-formed files command reached no server: the check above proves nothing")
	}
}

// TestDocsWritesPages: --dir writes a page per command, Markdown or man.
func TestDocsWritesPages(t *testing.T) {
	_, vd := countingEnv(t)
	for _, f := range []struct{ format, file string }{{"markdown", "vaultdeck_audit_sync.md"}, {"man", "vaultdeck-audit-sync.1"}} {
		dir := t.TempDir()
		if r := vd("docs", "--dir", dir, "--format", f.format); r.code != 0 {
			t.Fatalf("%s: %d %q", f.format, r.code, r.stderr)
		}
		page, err := os.ReadFile(filepath.Join(dir, f.file))
		if err != nil || !bytes.Contains(page, []byte("max-rate")) {
			t.Errorf("%s: %v %q", f.file, err, page)
		}
	}
	if r := vd("docs", "--format", "pdf"); r.code != ExitUsage {
		t.Errorf("--format pdf: %d", r.code)
	}
}

// TestCompletionFromTheTree: candidates come from cobra's __complete over
// the same definitions: commands, subcommands, flags, view names.
func TestCompletionFromTheTree(t *testing.T) {
	_, vd := countingEnv(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "rec"}, "recycle-bin"},
		{[]string{"__complete", "audit", ""}, "follow"},
		{[]string{"__complete", "access", "cr"}, "crawl"},
		{[]string{"__complete", "--open", ""}, "audit"},
		{[]string{"__complete", "files", "x", "--status", "ready"}, "ready_to_query"},
		{[]string{"__complete", "recycle-bin", "--cl"}, "--client-matter"},
		{[]string{"__complete", "completion", ""}, "fish"},
	} {
		r := vd(c.args...)
		if r.code != 0 || !strings.Contains(r.stdout, c.want) {
			t.Errorf("%q: %d %q", c.args, r.code, r.stdout)
		}
	}
}

// TestCompletionScriptForEveryShell: each shell the completion command
// offers gets its script (PowerShell's registers an argument completer for
// vaultdeck), and the candidates list names every one of them.
func TestCompletionScriptForEveryShell(t *testing.T) {
	_, vd := countingEnv(t)
	for shell, mark := range map[string]string{
		"bash": "__start_vaultdeck", "zsh": "#compdef vaultdeck", "fish": "complete -c vaultdeck",
		"powershell": "Register-ArgumentCompleter",
	} {
		r := vd("completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, mark) {
			t.Errorf("completion %s: exit %d, stderr %q, script without %q", shell, r.code, r.stderr, mark)
		}
		if c := vd("__complete", "completion", ""); !strings.Contains(c.stdout, shell) {
			t.Errorf("completion's candidates %q lack %s", c.stdout, shell)
		}
	}
}
