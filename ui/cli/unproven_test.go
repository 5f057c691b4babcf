package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// journalUnproven records, as an earlier resume would have, a run of
// project pid whose file a/b/x.pdf is unproven: its batch closed, its
// arrival neither proven nor ruled out.
func journalUnproven(t *testing.T, dbPath, pid string) {
	t.Helper()
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lease := store.Lease{Owner: "earlier", Until: time.Now().Add(time.Minute)}
	_, batches, err := st.RecordRun(store.UploadRun{Profile: "default", ProjectID: pid, Mode: "keep"}, nil,
		[][]store.JournalFile{{{Local: "/home/u/docs/a/b/x.pdf", Path: "a/b/x.pdf", Name: "x.pdf", Size: 3}}}, lease)
	if err != nil {
		t.Fatal(err)
	}
	b := batches[0]
	if err := st.StartBatch(b.ID, "earlier", time.Now(), b.Files); err != nil {
		t.Fatal(err)
	}
	if err := st.CompleteBatch(b.ID, "earlier", []store.FileOutcome{{ID: b.Files[0].ID, State: store.FileUnproven,
		Reason: "its request's answer was lost; check the project"}}, ""); err != nil {
		t.Fatal(err)
	}
}

// TestResumeWithOnlyUnprovenLeftExits3: a file an earlier resume left
// unproven is not done. A later `upload --resume` has nothing to send, yet
// it must exit 3 naming the file (it said nothing and exited 0).
func TestResumeWithOnlyUnprovenLeftExits3(t *testing.T) {
	db := filepath.Join(t.TempDir(), store.FileName)
	_, pid, vd := newUploadEnvAt(t, db)
	journalUnproven(t, db, pid)
	r := vd("upload", "--resume")
	if r.code != ExitPartial || !strings.Contains(r.stderr, "/home/u/docs/a/b/x.pdf: not known to have arrived") || !strings.Contains(r.stdout, "1 unproven") {
		t.Errorf("resume: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("upload", "--resume", "--json")
	if r.code != ExitPartial || !strings.Contains(r.stdout, `"file_path": "a/b/x.pdf"`) {
		t.Errorf("resume --json: %d %q", r.code, r.stdout)
	}
}
