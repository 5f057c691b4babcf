package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// readOnlyCopy mounts a small tmpfs, puts the file at path in it and
// remounts it read-only; the test is skipped where mounting is not allowed
// (not root, no mount).
func readOnlyCopy(t *testing.T, path string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "none", dir).CombinedOutput(); err != nil {
		t.Skipf("no read-only filesystem to try (mount: %v %s)", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, FileName)
	if err := os.WriteFile(ro, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount read-only: %v %s", err, out)
	}
	return ro
}

// TestAStoreOnAReadOnlyFilesystemCanBeRead (issue 40): before, every Open
// failed on a chmod of the file, private already; then SQLite could not open
// it for writing nor read it without an -shm it cannot make there.
func TestAStoreOnAReadOnlyFilesystemCanBeRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	mirrored(t, path, 600)
	ro := readOnlyCopy(t, path)
	s, err := Open(ro)
	if err != nil {
		t.Fatalf("a store on a read-only filesystem: %v", err)
	}
	defer s.Close()
	if ps, err := s.Profiles(); err != nil || len(ps) != 1 {
		t.Errorf("its profiles: %v, %v", ps, err)
	}
	if err := s.Check(); err != nil {
		t.Errorf("its check: %v", err)
	}
	if err := s.SaveProfile(Profile{Name: "new", Region: "us"}); err == nil {
		t.Error("a write on a read-only filesystem reported success")
	}
	if in, err := Inspect(t.Context(), ro); err != nil || !in.Whole() {
		t.Errorf("Inspect on a read-only filesystem: %v, %+v", err, in.Problems)
	}
}
