package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// TestCLIValidationAndConventions runs the built binary the way a script or
// a person at a shell does. Nothing listens on the base URL: a value that
// reached the network would fail with exit 1, so exit 2 naming the value
// proves it was refused before any request.
func TestCLIValidationAndConventions(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	home := t.TempDir()
	env := []string{"VAULTDECK_HOME=" + home, "VAULTDECK_TOKEN=x", "VAULTDECK_BASE_URL=http://127.0.0.1:9"}
	const id = "0f8fad5b-d9cb-469f-a165-70867728950e"

	t.Run("refused before any request", func(t *testing.T) {
		for _, c := range []struct {
			args []string
			name string // the offending value the message must name
		}{
			{[]string{"users", "not-a-uuid"}, "not-a-uuid"},
			{[]string{"files", "1234"}, "1234"},
			{[]string{"status", id + ",not-a-uuid"}, "not-a-uuid"},
			{[]string{"status", "--watch", "--stuck-after", "0", id}, "0"},
			{[]string{"status", "--watch", "--stuck-after", "-5m", id}, "-5m"},
			{[]string{"recycle-bin", "--client-matter", "xyz"}, "xyz"},
			{[]string{"--theme", "neon"}, "neon"},
			{[]string{"demo", "--theme", "neon"}, "neon"},
			{[]string{"--open", "nonsense"}, "nonsense"},
			{[]string{"demo", "--open", "nonsense"}, "nonsense"},
			{[]string{"--stuck-after", "0"}, "0"},
			{[]string{"demo", "--stuck-after", "-5m"}, "-5m"},
			{[]string{"audit", "--limit", "many"}, "many"},
		} {
			out, stderr, code := vd(t, bin, env, "", c.args...)
			if code != 2 || !strings.Contains(stderr, `"`+c.name+`"`) || out != "" {
				t.Errorf("%v: code %d, stderr %q, stdout %q", c.args, code, stderr, out)
			}
			if strings.Contains(stderr, "connection refused") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("%v: not one line before any request: %q", c.args, stderr)
			}
		}
	})

	t.Run("one form for unknown flags and commands", func(t *testing.T) {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"projects", "--nope"}, "vaultdeck projects: unknown flag --nope (see `vaultdeck help projects`)"},
			{[]string{"status", "--nope", id}, "vaultdeck status: unknown flag --nope (see `vaultdeck help status`)"},
			{[]string{"--nope"}, "vaultdeck: unknown flag --nope (see `vaultdeck help`)"},
			{[]string{"demo", "--nope"}, "vaultdeck demo: unknown flag --nope (see `vaultdeck help demo`)"},
			{[]string{"bogus"}, "vaultdeck: unknown command \"bogus\" (see `vaultdeck help`)"},
		} {
			_, stderr, code := vd(t, bin, env, "", c.args...)
			if code != 2 || strings.TrimSpace(stderr) != c.want {
				t.Errorf("%v: code %d, stderr %q, want %q", c.args, code, stderr, c.want)
			}
		}
	})

	t.Run("version", func(t *testing.T) {
		for _, args := range [][]string{{"--version"}, {"version"}} {
			out, stderr, code := vd(t, bin, env, "", args...)
			if code != 0 || !strings.HasPrefix(out, "vaultdeck ") || !strings.Contains(out, "go1.") {
				t.Errorf("%v: code %d, %q %q", args, code, out, stderr)
			}
		}
		out, _, code := vd(t, bin, env, "", "version", "--json")
		var v struct {
			Version, Revision, Go string
			Schema                int `json:"store_schema"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v.Version == "" || !strings.HasPrefix(v.Go, "go1.") || v.Schema != store.Schema() {
			t.Errorf("version --json: code %d, %q; want the store schema %d", code, out, store.Schema())
		}
		if out, _, _ := vd(t, bin, env, "", "version"); !strings.Contains(out, fmt.Sprintf("store schema %d", store.Schema())) {
			t.Errorf("version %q does not name the store schema %d", out, store.Schema())
		}
		// The release build's stamp (.ci/release/build's -ldflags -X) wins
		// over Go's own, which a build without VCS information lacks.
		relbin := filepath.Join(t.TempDir(), "vaultdeck-release")
		const pkg = "github.com/vaultdeck/vaultdeck/ui/cli."
		ld := "-X " + pkg + "stampVersion=v1.2.3 -X " + pkg + "stampCommit=0123456789abcdef0123456789abcdef01234567 -X " + pkg + "stampDate=2026-12-01T10:00:00Z"
		if out, err := exec.Command("go", "build", "-buildvcs=false", "-ldflags", ld, "-o", relbin, "github.com/vaultdeck/vaultdeck").CombinedOutput(); err != nil {
			t.Fatalf("go build -ldflags %s: %v\n%s", ld, err, out)
		}
		if out, _, _ := vd(t, relbin, env, "", "--version"); !strings.HasPrefix(out, "vaultdeck v1.2.3 0123456789ab (2026-12-01T10:00:00Z) go1.") || !strings.HasSuffix(strings.TrimSpace(out), fmt.Sprintf("store schema %d", store.Schema())) {
			t.Errorf("a stamped build's --version is %q", out)
		}
		// Built with VCS stamping (GOFLAGS may turn it off), the revision is
		// this checkout's.
		rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
		if err != nil {
			t.Skip("no git here: the revision cannot be checked")
		}
		top, _ := exec.Command("git", "rev-parse", "--show-toplevel").Output()
		if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || !fi.IsDir() {
			t.Skip("a git worktree (.git is a file): the go command stamps no VCS information there")
		}
		stamped := filepath.Join(t.TempDir(), "vaultdeck-vcs") // the shared binary's directory is read-only to tests
		if out, err := exec.Command("go", "build", "-buildvcs=true", "-o", stamped, "github.com/vaultdeck/vaultdeck").CombinedOutput(); err != nil {
			t.Fatalf("go build -buildvcs=true: %v\n%s", err, out)
		}
		out, _, _ = vd(t, stamped, env, "", "version", "--json")
		if json.Unmarshal([]byte(out), &v) != nil || v.Revision != strings.TrimSpace(string(rev)) {
			t.Errorf("revision %q, want %s", v.Revision, rev)
		}
		if out, _, _ := vd(t, stamped, env, "", "--version"); !strings.Contains(out, strings.TrimSpace(string(rev))[:12]) {
			t.Errorf("--version %q lacks the revision", out)
		}
	})

	t.Run("config and completion", func(t *testing.T) {
		sp := startSim(t, bin)
		penv := []string{"VAULTDECK_HOME=" + home, "VAULTDECK_TOKEN="}
		if _, stderr, code := vd(t, bin, penv, sp.tokens["admin"]+"\n", "login", "--profile", "eu-test",
			"--base-url", sp.base, "--insecure-storage"); code != 0 {
			t.Fatalf("login: %d %s", code, stderr)
		}
		for _, kv := range [][]string{{"theme", "mono"}, {"stuck-after", "45m"}, {"read-only", "true"}, {"timeout", "10s"}} {
			if _, stderr, code := vd(t, bin, penv, "", "config", "set", kv[0], kv[1]); code != 0 {
				t.Errorf("config set %v: %d %s", kv, code, stderr)
			}
		}
		out, _, code := vd(t, bin, penv, "", "config", "get", "stuck-after")
		if code != 0 || strings.TrimSpace(out) != "45m0s" {
			t.Errorf("config get stuck-after: %d %q", code, out)
		}
		out, _, _ = vd(t, bin, penv, "", "config", "get")
		for _, w := range []string{"theme", "mono", "read-only", "true", "timeout", "10s"} {
			if !strings.Contains(out, w) {
				t.Errorf("config get lacks %q:\n%s", w, out)
			}
		}
		for _, args := range [][]string{{"config", "set", "theme", "neon"}, {"config", "set", "stuck-after", "0"},
			{"config", "set", "read-only", "perhaps"}, {"config", "set", "colour", "red"}, {"config", "set", "timeout", "-1s"}} {
			if _, stderr, code := vd(t, bin, penv, "", args...); code != 2 || !strings.Contains(stderr, `"`+args[3]+`"`) && !strings.Contains(stderr, `"`+args[2]+`"`) {
				t.Errorf("%v: code %d, %q", args, code, stderr)
			}
		}

		// The profile's timeout reaches the client; --timeout wins over it.
		// The service here accepts connections and never answers.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				defer c.Close()
			}
		}()
		silent := append(penv, "VAULTDECK_BASE_URL=http://"+ln.Addr().String())
		if _, stderr, code := vd(t, bin, penv, "", "config", "set", "timeout", "1s"); code != 0 {
			t.Fatal(stderr)
		}
		if _, stderr, code := vd(t, bin, silent, "", "whoami"); code != 1 || !strings.Contains(stderr, "after 1s") {
			t.Errorf("profile timeout not applied: %d %q", code, stderr)
		}
		if _, stderr, code := vd(t, bin, silent, "", "whoami", "--timeout", "2s"); code != 1 || !strings.Contains(stderr, "after 2s") {
			t.Errorf("--timeout does not win: %d %q", code, stderr)
		}

		for _, sh := range []string{"bash", "zsh", "fish"} {
			out, stderr, code := vd(t, bin, penv, "", "completion", sh)
			if code != 0 || !strings.Contains(out, "vaultdeck") {
				t.Errorf("completion %s: %d %q", sh, code, stderr)
			}
		}
		if _, _, code := vd(t, bin, penv, "", "completion", "tcsh"); code != 2 {
			t.Errorf("completion tcsh: %d", code)
		}
		// Drive the bash completion as bash does: call the function the
		// script registers for vaultdeck. Cobra's script reads the words
		// with bash-completion's _get_comp_words_by_ref (installed with
		// bash on most systems, not on this one): a two-line stand-in
		// gives it the words as bash-completion would.
		complete := func(words ...string) string {
			shim := `_get_comp_words_by_ref() { cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }; compopt() { :; }; `
			if _, err := os.Stat("/usr/share/bash-completion/bash_completion"); err == nil {
				// the real one (CI installs it for the release check) reads
				// the line and the cursor as bash sets them, and its compopt
				// works only inside a completion bash started itself
				shim = `source /usr/share/bash-completion/bash_completion; compopt() { :; }; `
			}
			script := shim + `source <("$VD" completion bash); fn=$(complete -p vaultdeck | sed -E 's/.*-F ([^ ]+).*/\1/'); COMP_WORDS=(` + strings.Join(words, " ") + `); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; "$fn"; printf '%s\n' "${COMPREPLY[@]}"`
			cmd := exec.Command("bash", "-c", script)
			cmd.Env = append(penv, "VD="+bin, "PATH="+strings.TrimSuffix(bin, "/vaultdeck")+":/usr/bin:/bin")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("bash completion: %v\n%s", err, out)
			}
			return string(out)
		}
		if got := complete("vaultdeck", "rec"); strings.TrimSpace(got) != "recycle-bin" {
			t.Errorf("commands: %q", got)
		}
		if got := complete("vaultdeck", "--profile", "''"); !strings.Contains(got, "eu-test") {
			t.Errorf("profile names: %q", got)
		}
		if got := complete("vaultdeck", "recycle-bin", "--cl"); strings.TrimSpace(got) != "--client-matter" {
			t.Errorf("flags of a command: %q", got)
		}
		if got := complete("vaultdeck", "--theme", "''"); !strings.Contains(got, "high-contrast") {
			t.Errorf("theme names: %q", got)
		}
		if got := complete("vaultdeck", "config", "set", "theme", "mo"); strings.TrimSpace(got) != "mono" {
			t.Errorf("config values: %q", got)
		}
		if got := complete("vaultdeck", "audit", "fo"); strings.TrimSpace(got) != "follow" {
			t.Errorf("audit subcommands: %q", got)
		}
	})
}
