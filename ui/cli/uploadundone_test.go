package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestUploadsRunSaysWhatItsUndoDeleted: after `uploads undo RUN`, the
// run's listing (table, --csv, --json), the run list's counts and the
// incident report say which files the undo deleted, by which job and
// when, and which it left alone (replaced since) or could not delete
// (still processing): none of them reads "uploaded" for a deleted file.
func TestUploadsRunSaysWhatItsUndoDeleted(t *testing.T) {
	s, pid, vd := newUploadEnv(t)
	dir := t.TempDir()
	for _, n := range []string{"a.pdf", "b.pdf", "c.pdf", "d.pdf"} {
		os.WriteFile(filepath.Join(dir, n), []byte("privileged "+n), 0o644)
	}
	if r := vd("upload", pid, dir); r.code != ExitOK {
		t.Fatalf("upload: %d %s %s", r.code, r.stdout, r.stderr)
	}
	s.Advance(time.Hour)
	col := filepath.Join(t.TempDir(), "c.pdf")
	os.WriteFile(col, []byte("the colleague's"), 0o644)
	if r := vd("upload", pid, col, "--mode", "replace"); r.code != ExitOK {
		t.Fatalf("colleague: %d %s", r.code, r.stderr)
	}
	for _, f := range s.LiveFiles(pid) {
		if f.Name == "d.pdf" {
			s.SetFileStatus(f.ID, "PROCESSING")
		}
	}
	if r := vd("uploads", "undo", "1", "--yes", "--tries", "1"); r.code != ExitPartial {
		t.Fatalf("undo: %d %q %q", r.code, r.stdout, r.stderr)
	}

	r := vd("uploads", "1", "--csv")
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) != 5 {
		t.Fatalf("--csv: %v %q", err, r.stdout)
	}
	got := map[string][]string{}
	for _, rec := range recs[1:] {
		got[rec[0]] = rec
	}
	for name, want := range map[string][2]string{
		"a.pdf": {"deleted", "deleted by undo job 1 at "},
		"b.pdf": {"deleted", "deleted by undo job 1 at "},
		"c.pdf": {"replaced", "left alone by undo job 1: replaced since by a newer upload of its name"},
		"d.pdf": {"uploaded", "undo job 1 did not delete it: the service answered 409"},
	} {
		if g := got[name]; g == nil || g[1] != want[0] || !strings.Contains(g[2], want[1]) {
			t.Errorf("--csv %s: %q, want %s with %q", name, g, want[0], want[1])
		}
	}
	if r.code != ExitOK {
		t.Errorf("--csv exit %d", r.code)
	}

	r = vd("uploads", "1")
	if !strings.Contains(r.stdout, "2 deleted") || strings.Contains(r.stdout, "2 uploaded") {
		t.Errorf("the table's foot: %q", r.stdout)
	}

	r = vd("uploads", "1", "--json")
	var list []struct {
		Path   string    `json:"file_path"`
		Result string    `json:"result"`
		Job    int64     `json:"undo_job"`
		At     time.Time `json:"undone_at"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 4 {
		t.Fatalf("--json: %v %q", err, r.stdout)
	}
	for _, f := range list {
		if (f.Path == "a.pdf" || f.Path == "b.pdf") && (f.Result != "deleted" || f.Job != 1 || f.At.IsZero()) {
			t.Errorf("--json %s: %+v", f.Path, f)
		}
	}

	r = vd("uploads", "--json")
	var runs []struct {
		ID                int64
		Uploaded, Deleted int64
	}
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 2 {
		t.Fatalf("uploads --json: %v %q", err, r.stdout)
	}
	if runs[len(runs)-1].ID != 1 || runs[len(runs)-1].Deleted != 2 || runs[len(runs)-1].Uploaded != 1 {
		t.Errorf("the run list's counts of run 1: %+v", runs)
	}
}

// TestUploadsRunDuringAStoppedUndo: an undo killed with a deletion in
// flight (its answer never recorded) leaves that file unknown in the
// run's listing, neither deleted nor uploaded, and exit 3, until the
// undo is resumed.
func TestUploadsRunDuringAStoppedUndo(t *testing.T) {
	db := filepath.Join(t.TempDir(), store.FileName)
	s, pid, vd := newUploadEnvAt(t, db)
	dir := t.TempDir()
	for _, n := range []string{"a.pdf", "b.pdf"} {
		os.WriteFile(filepath.Join(dir, n), []byte("privileged "+n), 0o644)
	}
	if r := vd("upload", pid, dir); r.code != ExitOK {
		t.Fatalf("upload: %d %s %s", r.code, r.stdout, r.stderr)
	}
	s.Advance(time.Hour)
	// the state a kill -9 leaves: the job recorded, a.pdf's request sent
	// and its answer not recorded, b.pdf not sent yet
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	files, err := st.RunFiles(1)
	if err != nil || len(files) != 2 {
		t.Fatal(err, files)
	}
	var items []store.WriteJobItem
	for i, f := range files {
		items = append(items, store.WriteJobItem{Seq: i + 1, Send: i + 1, Target: f.FileID, Label: f.Name, Action: "delete", State: store.ItemPlanned})
	}
	id, err := st.StartWriteJob(store.WriteJob{Kind: "delete_file", Profile: "default", BaseURL: "http://x.test", Plan: upload.UndoTag(1) + "delete    2 files\n"}, items)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SendingWriteJobItems(id, []int{1}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	r := vd("uploads", "1", "--csv")
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("--csv: %v %q", err, r.stdout)
	}
	if recs[1][1] != "unknown" || !strings.Contains(recs[1][2], "undo job 1") {
		t.Errorf("the file in flight: %q", recs[1])
	}
	if recs[2][1] != "uploaded" || !strings.Contains(recs[2][2], "undo job 1 has not sent its deletion") {
		t.Errorf("the file not sent yet: %q", recs[2])
	}
	if r.code != ExitPartial {
		t.Errorf("exit %d while a file's state is unknown", r.code)
	}
	r = vd("uploads", "report", "1")
	if !strings.Contains(r.stdout, "unknown") {
		t.Errorf("the report of the file in flight: %q", r.stdout)
	}
}

// TestUploadsUndoOfOneRunLeavesTheOther: two runs to one project (the
// second a keep-mode upload of the same folder, new files of new names);
// the undo of the first says deleted for its files only: the second's
// listing and counts stay uploaded, and its own undo is still whole.
func TestUploadsUndoOfOneRunLeavesTheOther(t *testing.T) {
	s, pid, vd := newUploadEnv(t)
	dir := t.TempDir()
	for _, n := range []string{"a.pdf", "b.pdf"} {
		os.WriteFile(filepath.Join(dir, n), []byte("privileged "+n), 0o644)
	}
	for _, mode := range []string{"skip", "keep"} {
		if r := vd("upload", pid, dir, "--mode", mode); r.code != ExitOK {
			t.Fatalf("upload --mode %s: %d %s %s", mode, r.code, r.stdout, r.stderr)
		}
	}
	s.Advance(time.Hour)
	if r := vd("uploads", "undo", "1", "--yes"); r.code != ExitOK {
		t.Fatalf("undo 1: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("uploads", "1", "--csv"); strings.Count(r.stdout, ",deleted,deleted by undo job 1 at ") != 2 {
		t.Errorf("run 1 after its undo: %q", r.stdout)
	}
	if r := vd("uploads", "2", "--csv"); strings.Count(r.stdout, ",uploaded,") != 2 || strings.Contains(r.stdout, "by undo job") {
		t.Errorf("run 2 after run 1's undo: %q", r.stdout)
	}
	if r := vd("uploads", "undo", "2", "--dry-run"); !strings.Contains(r.stdout, "delete    2 files") {
		t.Errorf("run 2's undo after run 1's: %q", r.stdout)
	}
	if n := len(s.LiveFiles(pid)); n != 2 {
		t.Errorf("%d files in the project after run 1's undo, want run 2's 2", n)
	}
}
