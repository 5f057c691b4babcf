package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestUploadWhoseReportIsLostNamesItsRun: an upload whose report stdout
// refused has still sent and journaled its files: it exits 1 with the
// stdout line, then names the run whose outcomes `vaultdeck uploads RUN`
// shows, and says nothing of a Ctrl-C nobody pressed.
func TestUploadWhoseReportIsLostNamesItsRun(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow}})
	pid, err := e.Sim.AddProject(sim.ProjectSpec{Name: "Inbox"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	up := filepath.Join(dir, "up")
	os.MkdirAll(up, 0o755)
	for _, f := range []string{"a.pdf", "b.txt"} {
		os.WriteFile(filepath.Join(up, f), []byte("content of "+f), 0o644)
	}
	db := filepath.Join(dir, "vaultdeck.db")
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	var errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: fullStdout{}, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
		Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}, Clock: fixedClock{},
		OpenStore: func() (*store.Store, error) { return store.Open(db) },
		Journal:   func(string) (*store.Store, string, error) { st, err := store.Open(db); return st, "default", err }}
	code := Main(context.Background(), []string{"upload", pid, up}, env)
	want := "vaultdeck upload: stdout failed: no space left on device: nothing was written\n" +
		"vaultdeck upload: what became of each file is in the journal: `vaultdeck uploads 1` shows it\n"
	if code != 1 || errb.String() != want {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}
