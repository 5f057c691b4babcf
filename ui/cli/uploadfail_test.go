package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestUploadJournalFailureExitsPartial: when the journal cannot record a
// request's outcome (a full disk, a lost lease), the error is reported and
// the exit status is 3, not 0: a script must not take the upload as done.
func TestUploadJournalFailureExitsPartial(t *testing.T) {
	s := sim.New(sim.Options{Seed: 1, NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	pid, err := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	if err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(dbPath) // creates the journal's tables
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	// The journal's last step for a request, CompleteBatch, fails as on a full disk.
	if _, err := db.Exec(`CREATE TRIGGER disk_full BEFORE UPDATE OF done_at ON upload_batches
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	doc := filepath.Join(t.TempDir(), "a.pdf")
	os.WriteFile(doc, []byte("content"), 0o600)
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": srv.URL}
	for _, args := range [][]string{{"upload", pid, doc}, {"upload", pid, doc, "--json"}} {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Limits: api.Limits{Vault: -1},
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		code := Main(context.Background(), args, env)
		text := out.String() + errb.String()
		if code != ExitPartial || !strings.Contains(text, "disk is full") {
			t.Errorf("%v: code %d, want %d; output %q", args, code, ExitPartial, text)
		}
		if args[len(args)-1] == "--json" {
			var rep uploadReport
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Errors) != 1 {
				t.Errorf("--json report: %v %+v", err, rep)
			}
		}
	}
}
