package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUploadsTimesAreUTC: human output has one rule for times, UTC (a
// run's start as much as an audit entry's), whatever the machine's zone;
// the rule is said in `vaultdeck help formatting`.
func TestUploadsTimesAreUTC(t *testing.T) {
	was := time.Local
	time.Local = time.FixedZone("UTC+9", 9*3600) // the machine's zone, for this test only
	defer func() { time.Local = was }()
	_, pid, vd := newUploadEnv(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.pdf"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := vd("upload", pid, dir); r.code != ExitOK {
		t.Fatalf("upload: %d %q", r.code, r.stderr)
	}
	var runs []struct {
		Started time.Time `json:"created_at"`
	}
	r := vd("uploads", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &runs); err != nil || len(runs) != 1 {
		t.Fatalf("uploads --json: %v %q", err, r.stdout)
	}
	want := runs[0].Started.UTC().Format("2006-01-02 15:04")
	if r = vd("uploads"); !strings.Contains(r.stdout, want) {
		t.Errorf("uploads shows the run's start not as UTC %s:\n%s", want, r.stdout)
	}
}
