package cli

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/uploadcmd"
)

// TestUploadJournalFailureExitsPartial: when the journal cannot record a
// request's outcome (a full disk, a lost lease), the error is reported and
// the exit status is 3, not 0: a script must not take the upload as done.
func TestUploadJournalFailureExitsPartial(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s := e.Sim
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
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
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
			var rep uploadcmd.Report
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
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s := e.Sim
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
	vd := cliEnv(t, s, e.URL, dbPath)
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

// TestDamagedJournalIsSaidNotReadAsEmpty: an unfinished run of 80 files,
// then some pages of vaultdeck.db overwritten. `upload --resume --json`
// printed "runs": [] and exited 0, dropping the run. Now resume and
// `uploads` exit 1 with a line that names the file and says what to do.
func TestDamagedJournalIsSaidNotReadAsEmpty(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s := e.Sim
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	for _, whole := range []bool{false, true} {
		damagedJournal(t, s, e.URL, pid, whole)
	}
}

func damagedJournal(t *testing.T, s *sim.Server, base, pid string, whole bool) {
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	var files [][]store.JournalFile
	for b := range 2 {
		var batch []store.JournalFile
		for i := range 40 {
			name := fmt.Sprintf("doc%02d-%02d.pdf", b, i)
			batch = append(batch, store.JournalFile{Local: "/exports/" + name, Path: name, Name: name, Size: 100})
		}
		files = append(files, batch)
	}
	if _, _, err := st.RecordRun(store.UploadRun{Profile: "default", ProjectID: pid, Mode: "skip"}, nil, files, store.Lease{}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	damagePages(t, dbPath, whole)

	vd := cliEnv(t, s, base, dbPath)
	for _, args := range [][]string{{"upload", "--resume", "--json"}, {"upload", "--resume"}, {"uploads"}, {"uploads", "--json"}} {
		code, out, errText := vd(args...)
		if code != ExitError || !strings.Contains(errText, "damaged") || !strings.Contains(errText, "move the file aside") || strings.Contains(out, `"runs": []`) {
			t.Errorf("whole %v, %v: exit %d, stdout %q, stderr %q", whole, args, code, out, errText)
		}
	}
	if n := fileCount(s, pid); n != 0 {
		t.Errorf("%d files were sent from a damaged journal", n)
	}
}

// damagePages damages the pages that hold the journal's open batches, as a
// torn write would, and leaves the rest whole, so the file still opens:
// the index of open batches becomes a well-formed but empty page (what
// read as "nothing to resume"), and with whole, the tables' pages become
// garbage too.
func damagePages(t *testing.T, path string, whole bool) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var pages []int64
	rows, err := db.Query(`SELECT pageno FROM dbstat WHERE name IN (?, ?, 'upload_batches_open') ORDER BY name = 'upload_batches_open' DESC, pageno`, tables(whole), tables(whole))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p int64
		rows.Scan(&p)
		pages = append(pages, p)
	}
	rows.Close()
	db.Close()
	if len(pages) < 1 {
		t.Fatalf("the journal spans %d pages", len(pages))
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// An empty leaf index page: type 0x0A, no freeblock, no cells, content
	// from the page's end.
	empty := make([]byte, 4096)
	empty[0], empty[5], empty[6] = 0x0A, 0x10, 0x00
	f.WriteAt(empty, (pages[0]-1)*4096)
	junk := bytes.Repeat([]byte{0xA5, 0x5A, 0x00, 0xFF}, 1024)
	for _, p := range pages[1:] {
		f.WriteAt(junk, (p-1)*4096)
	}
}

func tables(whole bool) string {
	if whole {
		return "upload_files"
	}
	return "none"
}

// TestUnrecordedStartLeavesTheBatchForResume: a batch whose start cannot
// be journaled (a full disk) is not sent, is counted as unfinished and is
// released for a resume; before, it was counted nowhere, so the command
// said nothing of what was left.
func TestUnrecordedStartLeavesTheBatchForResume(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s := e.Sim
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, _ := sql.Open("sqlite", dbPath)
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER disk_full BEFORE UPDATE OF began_at ON upload_batches
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "a.pdf")
	os.WriteFile(doc, []byte("content"), 0o600)
	vd := cliEnv(t, s, e.URL, dbPath)
	code, _, errText := vd("upload", pid, doc)
	if code != ExitPartial || !strings.Contains(errText, "Not sent: batch 1 (1 file)") || !strings.Contains(errText, "1 batch unfinished") {
		t.Errorf("exit %d, stderr %q", code, errText)
	}
	if n := fileCount(s, pid); n != 0 {
		t.Errorf("%d files sent without a journaled start", n)
	}
	db.Exec(`DROP TRIGGER disk_full`)
	if code, out, errText := vd("upload", "--resume"); code != ExitOK || !strings.Contains(out, "1 uploaded") {
		t.Errorf("resume: exit %d %s %s", code, out, errText)
	}
}

// TestResumeOnAFullDiskSaysWhatToDo: a resume whose journal cannot take its
// claim on a batch (a full disk) sent nothing; it said only "a database
// transaction could not be committed: database or disk is full". It now
// names the batch, says nothing of it was sent, and what to run.
func TestResumeOnAFullDiskSaysWhatToDo(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s := e.Sim
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, _ := sql.Open("sqlite", dbPath)
	defer db.Close()
	// An upload whose start cannot be recorded leaves its batch pending.
	if _, err := db.Exec(`CREATE TRIGGER disk_full BEFORE UPDATE OF began_at ON upload_batches
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "a.pdf")
	os.WriteFile(doc, []byte("content"), 0o600)
	vd := cliEnv(t, s, e.URL, dbPath)
	if code, _, errText := vd("upload", pid, doc); code != ExitPartial {
		t.Fatalf("upload: exit %d %s", code, errText)
	}
	db.Exec(`DROP TRIGGER disk_full`)
	if _, err := db.Exec(`CREATE TRIGGER disk_full BEFORE UPDATE OF lease_owner ON upload_batches
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	code, _, errText := vd("upload", "--resume")
	if code == ExitOK || !strings.Contains(errText, "batch 1") || !strings.Contains(errText, "nothing of it was sent") || !strings.Contains(errText, "upload --resume") {
		t.Errorf("resume on a full disk: exit %d, stderr %q", code, errText)
	}
	if n := fileCount(s, pid); n != 0 {
		t.Errorf("%d files sent without a claim on their batch", n)
	}
	db.Exec(`DROP TRIGGER disk_full`)
	if code, out, errText := vd("upload", "--resume"); code != ExitOK || !strings.Contains(out, "1 uploaded") {
		t.Errorf("resume: exit %d %s %s", code, out, errText)
	}
}
