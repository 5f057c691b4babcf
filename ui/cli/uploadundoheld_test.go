package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestUndoHeldByAnotherProcessSendsNothing: `uploads undo RUN` run again
// while another process still runs that undo (a second terminal, the
// console's X) is refused naming the process, exit 1, and deletes
// nothing; once that process is gone, running it again resumes the job.
func TestUndoHeldByAnotherProcessSendsNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), store.FileName)
	s, pid, vd := newUploadEnvAt(t, db)
	dir := t.TempDir()
	for _, n := range []string{"a.pdf", "b.pdf"} {
		os.WriteFile(filepath.Join(dir, n), []byte("misfiled "+n), 0o644)
	}
	if r := vd("upload", pid, dir); r.code != ExitOK {
		t.Fatalf("upload: %d %s", r.code, r.stderr)
	}
	s.Advance(time.Hour)
	// the other process: it recorded the undo job of run 1 and holds it
	other, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var files []deletefile.File
	for _, f := range s.LiveFiles(pid) {
		files = append(files, deletefile.File{ID: f.ID, Name: f.Name, ProjectID: pid})
	}
	p, err := writejob.NewPlan(store.WriteJob{Kind: deletefile.Name, Profile: "default", BaseURL: "http://elsewhere", Plan: upload.UndoTag(1)}, deletefile.Items(files))
	if err != nil {
		t.Fatal(err)
	}
	id, err := writejob.Start(writejob.Deps{Store: other}, p)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := other.LockWriteJob(id)
	if err != nil {
		t.Fatal(err)
	}
	r := vd("uploads", "undo", "1", "--yes")
	if r.code != ExitError || !strings.Contains(r.stderr, "is being run by another vaultdeck process (process ") {
		t.Fatalf("undo while another process holds it: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if n := len(s.LiveFiles(pid)); n != 2 {
		t.Fatalf("%d files left, want 2: the refused undo deleted some", n)
	}
	unlock()
	if r := vd("uploads", "undo", "1", "--yes"); r.code != ExitOK || !strings.Contains(r.stderr, "resuming undo job") {
		t.Fatalf("undo once the other process is gone: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if n := len(s.LiveFiles(pid)); n != 0 {
		t.Fatalf("%d files left after the resumed undo", n)
	}
}
