package upload

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// sameNameRig uploads a/motion.pdf and b/motion.pdf in one run with mode,
// settles it, and returns the run's journal rows by path.
func sameNameRig(t *testing.T, mode api.DuplicateMode) (*rig, Outcome, map[string]store.JournalFile) {
	t.Helper()
	r := newRig(t)
	for _, p := range []string{"a/motion.pdf", "b/motion.pdf", "a/other.pdf"} {
		full := filepath.Join(r.dir, "docs", p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("content of "+p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plan := Walk([]string{filepath.Join(r.dir, "docs")})
	same := plan.SameNames()
	if len(same) != 1 || same[0].Name != "motion.pdf" || same[0].Paths() != `"a/motion.pdf", "b/motion.pdf"` {
		t.Fatalf("SameNames = %+v", same)
	}
	job := r.runner("a")
	out, err := job.Upload(context.Background(), r.project, plan, mode)
	if err != nil {
		t.Fatal(err)
	}
	job.Settle(context.Background(), &out)
	files, _ := r.store.RunFiles(out.RunIDs[0])
	by := map[string]store.JournalFile{}
	for _, f := range files {
		by[f.Path] = f
	}
	return r, out, by
}

func TestSameNamesReplaceSettlesAndReuploadNeverSendsOverASibling(t *testing.T) {
	r, out, by := sameNameRig(t, api.DuplicateReplace)
	if len(out.Replaced) != 1 || out.Replaced[0].Path != "a/motion.pdf" || len(out.Uploaded) != 2 {
		t.Fatalf("replaced %+v, uploaded %d; want a/motion.pdf replaced, 2 uploaded", out.Replaced, len(out.Uploaded))
	}
	if w, _ := Result(by["a/motion.pdf"]); w != "replaced" {
		t.Errorf("a/motion.pdf result %q, want replaced", w)
	}
	tracked, _ := r.store.TrackedFiles("default")
	for _, f := range tracked {
		if f.Path == "a/motion.pdf" {
			t.Errorf("the superseded file is still tracked as processing")
		}
	}
	// R on the superseded file would send motion.pdf with replace, over b.
	live := by["b/motion.pdf"].FileID
	ro, replaced, err := r.runner("a").Reupload(context.Background(), []store.JournalFile{by["a/motion.pdf"]})
	if err != nil || len(replaced) != 0 || len(ro.Refused) != 1 || !strings.Contains(ro.Refused[0].Reason, "superseded") {
		t.Fatalf("re-upload of the superseded file: %v %v %+v", err, replaced, ro.Refused)
	}
	if got := r.listed()["motion.pdf"]; len(got) != 1 || got[0] != live {
		t.Errorf("the project's motion.pdf is %v, want b's %s", got, live)
	}
}

func TestSameNamesKeepRenamesAndReuploadRefusesTheRenamed(t *testing.T) {
	r, out, by := sameNameRig(t, api.DuplicateKeep)
	if len(out.Renamed) != 1 || out.Renamed[0].ServiceName != "motion (1).pdf" || len(out.Uploaded) != 3 {
		t.Fatalf("renamed %+v, uploaded %d", out.Renamed, len(out.Uploaded))
	}
	if w, d := Result(by["b/motion.pdf"]); w != "renamed" || !strings.Contains(d, "motion (1).pdf") {
		t.Errorf("b/motion.pdf result %q %q", w, d)
	}
	// b re-sent as motion.pdf with replace would supersede a.
	ro, replaced, err := r.runner("a").Reupload(context.Background(), []store.JournalFile{by["b/motion.pdf"]})
	if err != nil || len(replaced) != 0 || len(ro.Refused) != 1 || !strings.Contains(ro.Refused[0].Reason, "renamed") {
		t.Fatalf("re-upload of the renamed file: %v %v %+v", err, replaced, ro.Refused)
	}
	// a is the project's motion.pdf: re-uploading it replaces only itself.
	ro, replaced, err = r.runner("a").Reupload(context.Background(), []store.JournalFile{by["a/motion.pdf"]})
	if err != nil || len(replaced) != 1 || len(ro.Refused) != 0 {
		t.Fatalf("re-upload of a: %v %v %+v", err, replaced, ro.Refused)
	}
}

// Two files named on the command line from different folders both have the
// file_paths value "x.pdf": they are told apart by their local paths.
func TestSameNamesGivenAsFilesAreNamedByLocalPath(t *testing.T) {
	dir := t.TempDir()
	var roots []string
	for _, p := range []string{"a/x.pdf", "b/x.pdf"} {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		roots = append(roots, full)
	}
	same := Walk(roots).SameNames()
	if len(same) != 1 || !strings.Contains(same[0].Paths(), filepath.Join(dir, "a", "x.pdf")) ||
		!strings.Contains(same[0].Effect(api.DuplicateSkip), `"`+filepath.Join(dir, "b", "x.pdf")+`" is skipped`) {
		t.Fatalf("same names %+v: %s / %s", same, same[0].Paths(), same[0].Effect(api.DuplicateSkip))
	}
}
