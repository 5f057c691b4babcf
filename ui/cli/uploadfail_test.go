package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
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

// cliEnv runs the CLI in-process against srv with the journal at dbPath.
func cliEnv(t *testing.T, s *sim.Server, base, dbPath string) func(args ...string) (int, string, string) {
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": base}
	return func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Limits: api.Limits{Vault: -1},
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		code := Main(context.Background(), args, env)
		return code, out.String(), errb.String()
	}
}

// TestPlanRecordedWholeOrNothing: the disk fills while the plan of 450
// files is journaled (a trigger fails the 251st file row as SQLite does on
// a full disk). The upload must exit non-zero, send nothing and leave no
// run; once space is back, a resume has nothing to finish and a new upload
// sends all 450. Before, 250 rows stayed in the journal as a "run", and
// the resume exited 0 with the other 200 files in no record.
func TestPlanRecordedWholeOrNothing(t *testing.T) {
	s := sim.New(sim.Options{Seed: 1, NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	pid, err := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	if err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER disk_full BEFORE INSERT ON upload_files
		WHEN (SELECT count(*) FROM upload_files) >= 250
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "folder")
	os.MkdirAll(dir, 0o755)
	for i := range 450 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("doc%03d.txt", i)), []byte(fmt.Sprint("content ", i)), 0o600)
	}
	vd := cliEnv(t, s, srv.URL, dbPath)
	code, out, errText := vd("upload", pid, dir)
	if code == ExitOK || !strings.Contains(errText, "disk is full") {
		t.Fatalf("upload on a full disk: exit %d, stdout %q, stderr %q", code, out, errText)
	}
	var rows int
	db.QueryRow(`SELECT (SELECT count(*) FROM upload_runs) + (SELECT count(*) FROM upload_batches) + (SELECT count(*) FROM upload_files)`).Scan(&rows)
	if rows != 0 {
		t.Errorf("a failed plan left %d journal rows behind", rows)
	}
	if n := fileCount(s, pid); n != 0 {
		t.Errorf("%d files were sent though the plan was never recorded", n)
	}
	db.Exec(`DROP TRIGGER disk_full`) // space is back
	if code, out, errText := vd("upload", "--resume", "--json"); code != ExitOK || !strings.Contains(out, `"uploaded": []`) {
		t.Errorf("resume after the failed plan: exit %d %s %s", code, out, errText)
	}
	if code, _, errText := vd("upload", pid, dir); code != ExitOK {
		t.Fatalf("upload again: exit %d %s", code, errText)
	}
	if n := fileCount(s, pid); n != 450 {
		t.Errorf("the project holds %d files, want 450", n)
	}
}

func fileCount(s *sim.Server, pid string) int {
	for _, p := range s.Projects() {
		if p.ID == pid {
			return p.FileCount
		}
	}
	return -1
}
