package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
)

// A profile written only in $XDG_CONFIG_HOME/vaultdeck/config.yaml works
// end to end against the simulator: chosen by --profile or as the file's
// default, its token from VAULTDECK_TOKEN or the token file it opts in to;
// `config set` of a value the file sets is refused naming the line.
func TestAProfileWrittenOnlyInTheConfigFileWorks(t *testing.T) {
	e := simtest.Start(t, simtest.Options{})
	cfgHome, dataHome := t.TempDir(), t.TempDir()
	vars := map[string]string{"XDG_CONFIG_HOME": cfgHome, "XDG_DATA_HOME": dataHome, "HOME": t.TempDir()}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Std(strings.NewReader(""), &out, &errb, func(k string) string { return vars[k] })
		env.Limits = api.Limits{Vault: -1, Audit: -1, Matters: -1}
		return run{Main(context.Background(), args, env), out.String(), errb.String()}
	}
	dir := filepath.Join(cfgHome, "vaultdeck")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "config.yaml")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("profiles:\n  filed:\n    base-url: " + e.URL + "\n    timeout: 20s\n    token-storage: file\n")

	vars["VAULTDECK_TOKEN"] = e.Token("admin")
	r := vd("--profile", "filed", "projects", "--json")
	if r.code != 0 {
		t.Fatalf("--profile filed projects: exit %d\n%s", r.code, r.stderr)
	}
	var projects []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &projects); err != nil || len(projects) == 0 {
		t.Fatalf("projects: %v %q", err, r.stdout)
	}
	if r := vd("projects"); r.code != 0 {
		t.Errorf("the file's only profile is the default: exit %d\n%s", r.code, r.stderr)
	}

	// Without the variable: the token file the profile opts in to.
	delete(vars, "VAULTDECK_TOKEN")
	if r := vd("--profile", "filed", "projects"); r.code == 0 || !strings.Contains(r.stderr, "filed") {
		t.Errorf("no token anywhere: exit %d %q", r.code, r.stderr)
	}
	tokens := filepath.Join(cfgHome, "vaultdeck", "tokens")
	os.MkdirAll(tokens, 0o700)
	if err := os.WriteFile(filepath.Join(tokens, "filed.token"), []byte(e.Token("vault-readonly")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := vd("--profile", "filed", "whoami", "--json"); r.code != 0 || !strings.Contains(r.stdout, "r.lindqvist@harrowgate-law.com") {
		t.Errorf("the token file: exit %d %q %q", r.code, r.stdout, r.stderr)
	}

	r = vd("profiles", "--json")
	var listed []struct {
		Name       string
		DeclaredIn string `json:"declared_in"`
	}
	json.Unmarshal([]byte(r.stdout), &listed)
	if r.code != 0 || len(listed) != 1 || listed[0].Name != "filed" || listed[0].DeclaredIn != file+":2" {
		t.Errorf("profiles lists the filed one: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("profiles", "--check"); r.code != 0 || !strings.Contains(r.stdout, "a plain-text file") || !strings.Contains(r.stdout, "cannot use matters") {
		t.Errorf("profiles --check of the filed profile: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = vd("--profile", "filed", "config", "set", "timeout", "40s")
	if r.code == 0 || !strings.Contains(r.stderr, file+":4") || !strings.Contains(r.stderr, "owns it") {
		t.Errorf("config set of a value the file sets: exit %d %q", r.code, r.stderr)
	}
	if r := vd("--profile", "filed", "config", "get"); r.code != 0 || !strings.Contains(r.stdout, "20s ("+file+":4)") {
		t.Errorf("config get names where the file sets it: exit %d %q %q", r.code, r.stdout, r.stderr)
	}

	// A mistake in the file stops every command that reads a profile, with
	// its line; a token in it is refused and never repeated.
	write("profiles:\n  filed:\n    base-url: " + e.URL + "\n    timeout: soon\n")
	if r := vd("--profile", "filed", "projects"); r.code != 1 || !strings.Contains(r.stderr, file+":4: profiles.filed.timeout") {
		t.Errorf("a bad timeout: exit %d %q", r.code, r.stderr)
	}
	write("profiles:\n  filed:\n    base-url: " + e.URL + "\n    token: " + e.Token("admin") + "\n")
	r = vd("--profile", "filed", "projects")
	if r.code != 1 || !strings.Contains(r.stderr, file+":4: profiles.filed.token: tokens are never kept") || strings.Contains(r.stderr+r.stdout, e.Token("admin")) {
		t.Errorf("a token in the file: exit %d %q", r.code, r.stderr)
	}
}
