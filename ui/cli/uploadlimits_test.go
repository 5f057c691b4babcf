package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestUploadRefusedBeforeSendingPastTheProjectsLimit: 60 files to a
// project that allows 50 more are refused by name with the numbers, before
// any request that uploads (and before the journal records a run).
func TestUploadRefusedBeforeSendingPastTheProjectsLimit(t *testing.T) {
	s, pid, vd := newUploadEnv(t)
	specs := make([]sim.FileSpec, 950)
	for i := range specs {
		specs[i] = sim.FileSpec{Name: fmt.Sprintf("existing %04d.pdf", i), Size: 4_000_000}
	}
	if _, err := s.AddFiles(pid, specs); err != nil {
		t.Fatal(err)
	}
	if err := s.SetProjectLimits(pid, 1000, 5_000_000_000); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := 0; i < 60; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("new %02d.pdf", i)), []byte("x"), 0o644)
	}
	r := vd("upload", pid, dir)
	if r.code != ExitError || !strings.Contains(r.stderr, "allows 1,000 files and holds 950, so 50 more fit; this upload adds 60") {
		t.Fatalf("%d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := len(s.LiveFiles(pid)); got != 950 {
		t.Fatalf("%d files after a refused upload", got)
	}
	if r := vd("uploads", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("a refused upload journaled a run: %s", r.stdout)
	}
	// 50 fit; under skip the names the project holds add nothing
	for i := 50; i < 60; i++ {
		os.Remove(filepath.Join(dir, fmt.Sprintf("new %02d.pdf", i)))
	}
	os.WriteFile(filepath.Join(dir, "existing 0001.pdf"), []byte("x"), 0o644)
	if r := vd("upload", pid, dir); r.code != ExitOK {
		t.Fatalf("50 new and one skipped: %d %q", r.code, r.stderr)
	}
}
