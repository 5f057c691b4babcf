package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestUploadsUndo is issue 44's case: a folder uploaded to the wrong
// project, then undone. Every file the run created goes; a colleague's
// file of a run file's name (a newer upload that replaced it) and a
// colleague's own file stay, the newer one named; a file still processing
// is tried again within the bound, then named; running the undo again
// resumes it and deletes that one.
func TestUploadsUndo(t *testing.T) {
	s, pid, vd := newUploadEnv(t)
	dir := t.TempDir()
	names := []string{"a.pdf", "b.pdf", "c.pdf", "d.pdf"}
	for _, n := range names {
		os.WriteFile(filepath.Join(dir, n), []byte("privileged "+n), 0o644)
	}
	if r := vd("upload", pid, dir); r.code != ExitOK {
		t.Fatalf("upload: %d %s %s", r.code, r.stdout, r.stderr)
	}
	s.Advance(time.Hour) // processed
	// a colleague replaces c.pdf with a newer version and adds their own
	col := filepath.Join(t.TempDir(), "c.pdf")
	os.WriteFile(col, []byte("the colleague's"), 0o644)
	if r := vd("upload", pid, col, "--mode", "replace"); r.code != ExitOK {
		t.Fatalf("colleague: %d %s", r.code, r.stderr)
	}
	own, _ := s.AddFiles(pid, []sim.FileSpec{{Name: "a.pdf", Size: 3}}) // renamed a (1).pdf
	// d.pdf: its pending jobs keep it processing (409)
	stuck := ""
	for _, f := range s.LiveFiles(pid) {
		if f.Name == "d.pdf" {
			stuck = f.ID
		}
	}
	s.SetFileStatus(stuck, "PROCESSING")

	r := vd("uploads", "undo", "1", "--dry-run")
	if r.code != ExitOK || !strings.Contains(r.stdout, "delete    3 files") || !strings.Contains(r.stdout, "replaced since by a newer upload") {
		t.Fatalf("dry run: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("uploads", "undo", "1")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("without a terminal or --yes: %d %q", r.code, r.stderr)
	}
	r = vd("uploads", "undo", "1", "--yes", "--tries", "2", "--retry-after", "1ms", "--json")
	if r.code != ExitPartial {
		t.Fatalf("undo with one still processing: %d %q %q", r.code, r.stdout, r.stderr)
	}
	var rc struct {
		Items []struct {
			FileID                       string `json:"file_id"`
			Name, State, Outcome, Detail string
			Attempts                     int
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil || len(rc.Items) != 3 {
		t.Fatalf("%v %s", err, r.stdout)
	}
	for _, it := range rc.Items {
		want := "deleted"
		if it.FileID == stuck {
			want = "busy"
			if it.State != "failed" || it.Attempts != 2 || !strings.Contains(it.Detail, "after 2 attempts") {
				t.Errorf("the processing file: %+v", it)
			}
		}
		if it.Outcome != want {
			t.Errorf("%s: %s, want %s", it.Name, it.Outcome, want)
		}
	}
	// the colleague's files stay
	left := map[string]bool{}
	for _, f := range s.LiveFiles(pid) {
		left[f.Name] = true
	}
	if !left["c.pdf"] || !left["a (1).pdf"] || !left["d.pdf"] || left["a.pdf"] || left["b.pdf"] || len(left) != 3 {
		t.Fatalf("left in the project: %v (own %v)", left, own)
	}
	// processed now: the undo again deletes it (a new job of the rest)
	s.SetFileStatus(stuck, "READY_TO_QUERY")
	r = vd("uploads", "undo", "1", "--yes")
	if r.code != ExitOK || !strings.Contains(r.stdout, "deleted") {
		t.Fatalf("the undo again: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = vd("uploads", "undo", "1", "--dry-run"); !strings.Contains(r.stdout, "delete    0 files") {
		t.Fatalf("after: %q", r.stdout)
	}
	_ = context.Background
}
