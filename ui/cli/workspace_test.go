package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// TestAProfileRemembersItsWorkspace: login records the workspace whoami
// places the token in; a token that whoami later places in another
// workspace (the token moved, or the profile's token was swapped for
// another's) is refused before any request, with a line naming both
// workspaces and `vaultdeck login`, until login again.
func TestAProfileRemembersItsWorkspace(t *testing.T) {
	srv := faultserver.Start(faultserver.None)
	defer srv.Close()
	home := t.TempDir()
	vd := func(stdin string, args ...string) run {
		var out, errb bytes.Buffer
		env := Std(strings.NewReader(stdin), &out, &errb, func(k string) string { return map[string]string{"VAULTDECK_HOME": home}[k] })
		env.Limits = api.Limits{Vault: -1, Audit: -1, Matters: -1}
		return run{Main(context.Background(), args, env), out.String(), errb.String()}
	}
	if r := vd("tok-workspace-0123456789\n", "login", "--base-url", srv.URL, "--insecure-storage"); r.code != 0 {
		t.Fatalf("login: exit %d %s", r.code, r.stderr)
	}
	if r := vd("", "projects"); r.code != 0 {
		t.Fatalf("projects in the workspace logged in to: exit %d %s", r.code, r.stderr)
	}
	if r := vd("", "profiles"); !strings.Contains(r.stdout, "Harrowgate LLP") {
		t.Errorf("profiles does not show the workspace remembered:\n%s", r.stdout)
	}
	srv.SetWorkspace("w2", "Other Chambers")
	r := vd("", "projects")
	if r.code == 0 || strings.Contains(r.stdout, "Share Purchase") || !strings.Contains(r.stderr, "Other Chambers") || !strings.Contains(r.stderr, "Harrowgate LLP") || !strings.Contains(r.stderr, "vaultdeck login") {
		t.Errorf("a token now in another workspace: exit %d\nstdout %q\nstderr %q; want it refused, both workspaces and `vaultdeck login` named", r.code, r.stdout, r.stderr)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = vd("", "upload", faultserver.ProjectID, dir)
	if r.code != 3 || !strings.Contains(r.stderr, "Other Chambers") || strings.Contains(r.stderr, "waited") || !strings.Contains(r.stderr, "--resume") {
		t.Errorf("an upload with a token now in another workspace: exit %d\nstderr %q; want it not sent, the workspaces named, not as a wait", r.code, r.stderr)
	}
	if r := vd("tok-workspace-0123456789\n", "login", "--base-url", srv.URL, "--insecure-storage"); r.code != 0 {
		t.Fatalf("login again: exit %d %s", r.code, r.stderr)
	}
	if r := vd("", "projects"); r.code != 0 || !strings.Contains(r.stdout, "Share Purchase") {
		t.Errorf("after login again: exit %d %s", r.code, r.stderr)
	}
}
