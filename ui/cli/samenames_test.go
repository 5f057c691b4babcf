package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/cli/uploadcmd"
)

// regexpLine reports whether a line of out matches expr.
func regexpLine(out, expr string) bool {
	return regexp.MustCompile(`(?m)` + expr).MatchString(out)
}

// Issue 25, case 6: exhibits/motion-1.pdf and pleadings/2026/motion-1.pdf
// in one upload with --mode replace said "15 uploaded" and exited 0, while
// the project kept one motion-1.pdf; status --journal kept listing the
// superseded one as processing, and nothing said which file was dropped.
func TestSameNamesAcrossFoldersAreSaidBeforeSending(t *testing.T) {
	s, pid, vd := newUploadEnv(t)
	dir := t.TempDir()
	for _, f := range []string{"exhibits/motion-1.pdf", "pleadings/2026/motion-1.pdf", "exhibits/other.pdf"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("content of "+f), 0o644)
	}
	r := vd("upload", "--mode", "replace", pid, dir)
	if r.code != ExitUsage || !strings.Contains(r.stderr, `"exhibits/motion-1.pdf", "pleadings/2026/motion-1.pdf"`) ||
		!strings.Contains(r.stderr, "--mode replace (chosen): the project keeps \"pleadings/2026/motion-1.pdf\"") || !strings.Contains(r.stderr, "nothing was sent") {
		t.Fatalf("same names without --same-names: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, p := range s.Projects() {
		if p.ID == pid && p.FileCount != 0 {
			t.Fatalf("refused upload sent %d files", p.FileCount)
		}
	}

	r = vd("upload", "--mode", "replace", "--same-names", "--json", pid, dir)
	var rep uploadcmd.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != ExitOK {
		t.Fatalf("upload --same-names: %d %v %q %q", r.code, err, r.stdout, r.stderr)
	}
	if len(rep.Uploaded) != 2 || len(rep.Replaced) != 1 || rep.Replaced[0].Path != "exhibits/motion-1.pdf" {
		t.Fatalf("uploaded %+v, replaced %+v; want 2 uploaded and exhibits/motion-1.pdf replaced", rep.Uploaded, rep.Replaced)
	}

	// status --journal: the superseded file is not processing.
	r = vd("status", "--journal")
	if strings.Contains(r.stdout, "exhibits/motion-1.pdf") || !strings.Contains(r.stdout, "2 unfinished") {
		t.Errorf("status --journal lists the superseded file: %q %q", r.stdout, r.stderr)
	}
	// uploads RUN: every file's outcome, the replaced one by name.
	r = vd("uploads", "1")
	if r.code != ExitOK || !regexpLine(r.stdout, `exhibits/motion-1.pdf\s+replaced`) || !regexpLine(r.stdout, `pleadings/2026/motion-1.pdf\s+uploaded`) ||
		!strings.Contains(r.stdout, "2 uploaded, 1 replaced") {
		t.Errorf("uploads 1: %d %q %q", r.code, r.stdout, r.stderr)
	}

	// uploads: the run's counts do not call the superseded file uploaded.
	r = vd("uploads", "--json")
	var runs []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 1 || runs[0]["uploaded"] != 2.0 || runs[0]["replaced"] != 1.0 {
		t.Errorf("uploads --json: %v %s", err, r.stdout)
	}

	// skip: which one was dropped is named.
	r = vd("upload", "--mode", "skip", "--same-names", pid, filepath.Join(dir, "pleadings"))
	if r.code != ExitOK || !regexpLine(r.stdout, `pleadings/2026/motion-1.pdf\s+skipped`) {
		t.Errorf("skip: %d %q %q", r.code, r.stdout, r.stderr)
	}
}
