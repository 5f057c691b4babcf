package cli

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// Headless matter runs and uploads name the local account that ran them
// (issue 45), in the receipt's text and --json, with the names write jobs'
// receipts use (actor_os_user, actor_key).
func TestHeadlessRunsNameTheLocalUser(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skip("no local account to name:", err)
	}
	e := newMattersEnv(t)
	p := e.file(t, "export.csv", spreadsheet(e.live(1)))
	if r := e.vd("", "matters", "delete", p, "--yes"); r.code != 0 && r.code != ExitPartial {
		t.Fatalf("delete: %d %q", r.code, r.stderr)
	}
	want := "run by    " + me.Username + " on this machine"
	if r := e.vd("", "matters", "receipt", "1"); !strings.Contains(r.stdout, want+"\n") {
		t.Errorf("matters receipt 1 does not say %q:\n%s", want, r.stdout)
	}
	if r := e.vd("", "--json", "matters", "receipt", "1"); !strings.Contains(r.stdout, `"actor_os_user": "`+me.Username+`"`) ||
		!strings.Contains(r.stdout, `"actor_key": ""`) {
		t.Errorf("matters receipt 1 --json names no actor:\n%s", r.stdout)
	}

	db := filepath.Join(t.TempDir(), store.FileName)
	_, pid, vd := newUploadEnvAt(t, db)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.pdf"), []byte("a"), 0o644)
	if r := vd("upload", pid, dir); r.code != 0 {
		t.Fatalf("upload: %d %q", r.code, r.stderr)
	}
	if r := vd("uploads", "1"); !strings.Contains(r.stdout+r.stderr, "run by "+me.Username+" on this machine") {
		t.Errorf("uploads 1 does not name %s:\n%s\n%s", me.Username, r.stdout, r.stderr)
	}
	if r := vd("uploads", "--json"); !strings.Contains(r.stdout, `"actor_os_user": "`+me.Username+`"`) ||
		!strings.Contains(r.stdout, `"actor_key": ""`) {
		t.Errorf("uploads --json names no actor:\n%s", r.stdout)
	}
}
