package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestReceiptShowsAuditEvidence: a matter receipt names the service's own
// api:client_matter_management entries of the run once the mirror covers
// its time, and says to run audit sync before that.
func TestReceiptShowsAuditEvidence(t *testing.T) {
	e := newMattersEnv(t)
	// The receipt is stamped by this machine's clock, the service's
	// entries by the simulator's: bring the simulator to now.
	e.s.Advance(time.Until(e.s.Now()) * -1)
	ms := e.live(2)
	p := e.file(t, "export.csv", spreadsheet(ms))
	if r := e.vd("", "matters", "delete", p, "--yes"); r.code != ExitPartial {
		t.Fatalf("delete: %d %q", r.code, r.stderr)
	}
	r := e.vd("", "matters", "receipt", "1")
	if r.code != 0 || !strings.Contains(r.stdout, "audit     not yet in the mirror: run `vaultdeck audit sync`") {
		t.Fatalf("before a sync: %d\n%s", r.code, r.stdout)
	}
	e.s.Advance(10 * time.Minute) // later entries, so the mirror reaches past the run
	if r := e.vd("", "audit", "sync"); r.code != 0 {
		t.Fatalf("sync: %d %q", r.code, r.stderr)
	}
	r = e.vd("", "matters", "receipt", "1")
	if r.code != 0 || !strings.Contains(r.stdout, "the service's audit log records it: ") ||
		!strings.Contains(r.stdout, "api:client_matter_management") {
		t.Fatalf("after a sync: %d\n%s", r.code, r.stdout)
	}
	r = e.vd("", "--json", "matters", "receipt", "1")
	var m struct {
		Evidence struct {
			IDs     []string `json:"entry_ids"`
			Covered *bool    `json:"covered"`
		} `json:"audit_evidence"`
	}
	if json.Unmarshal([]byte(r.stdout), &m) != nil || len(m.Evidence.IDs) == 0 || m.Evidence.Covered == nil || !*m.Evidence.Covered {
		t.Fatalf("json: %s", r.stdout)
	}
}

// TestUploadsShowAuditEvidence: `uploads` names, per run, the service's
// api:vault_upload_files entries of it (the token's user, the project, the
// time its batches went out) once the mirror covers them.
func TestUploadsShowAuditEvidence(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s := e.Sim
	pid, err := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	if err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), "vaultdeck.db")
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Limits:    api.Limits{Vault: -1, Audit: -1},
			OpenStore: func() (*store.Store, error) { return store.Open(dbPath) },
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.pdf"), []byte("a"), 0o644)
	if r := vd("upload", pid, dir); r.code != 0 {
		t.Fatalf("upload: %d %q", r.code, r.stderr)
	}
	r := vd("uploads")
	if !strings.Contains(r.stdout, "not yet in the mirror") || !strings.Contains(r.stderr, "run `vaultdeck audit sync`") {
		t.Fatalf("before a sync:\n%s\n%s", r.stdout, r.stderr)
	}
	s.Advance(10 * time.Minute)
	if r := vd("audit", "sync"); r.code != 0 {
		t.Fatalf("sync: %d %q", r.code, r.stderr)
	}
	r = vd("uploads", "--json")
	var runs []struct {
		Audit struct {
			IDs     []string `json:"entry_ids"`
			Covered *bool    `json:"covered"`
		} `json:"audit_evidence"`
	}
	if json.Unmarshal([]byte(r.stdout), &runs) != nil || len(runs) != 1 || len(runs[0].Audit.IDs) != 1 || runs[0].Audit.Covered == nil || !*runs[0].Audit.Covered {
		t.Fatalf("after a sync: %s %s", r.stdout, r.stderr)
	}
	if r = vd("uploads"); !strings.Contains(r.stdout, "1 entry") {
		t.Fatalf("table after a sync:\n%s", r.stdout)
	}
}
