package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUploadPlanOnAFullDisk is issue 17's second case on a real full
// filesystem: the state directory is a small tmpfs with about 40 KB left
// when a 450-file upload records its plan. Before, 250 files' rows stayed
// behind as a run that `upload --resume` then "finished", the other 200 in
// no record. Now the upload exits 1 saying nothing was sent and no run was
// kept; once space is back a resume has nothing to do and the upload sends
// every file once. It needs root to mount; the trigger test in ui/cli
// covers the same path elsewhere.
func TestUploadPlanOnAFullDisk(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	home := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", home).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", home).Run() })
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit")
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + home, "VAULTDECK_BASE_URL=" + sp.base}
	out, stderr, code := vd(t, bin, env, "", "projects", "--json") // creates the database
	var projects []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &projects); err != nil || code != 0 || len(projects) == 0 {
		t.Fatalf("projects: %d %v %s", code, err, stderr)
	}
	pid := projects[0].ID
	dir := filepath.Join(t.TempDir(), "folder")
	os.MkdirAll(dir, 0o755)
	for i := range 450 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("full-%03d.txt", i)), []byte(fmt.Sprint("content ", i)), 0o600)
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(home, &fs); err != nil {
		t.Fatal(err)
	}
	// Leave 40 KB: room to open the database, not to record 450 files. The
	// database made above grows as the store gains tables, so the filler is
	// whatever is left beyond those 40 KB (a negative size would panic).
	free := int64(fs.Bavail) * fs.Bsize
	if free <= 40<<10 {
		t.Fatalf("the %d KB tmpfs has only %d KB free after the first command: make it larger", 1024, free>>10)
	}
	filler := filepath.Join(home, "filler")
	if err := os.WriteFile(filler, make([]byte, free-40<<10), 0o600); err != nil {
		t.Fatal(err)
	}

	_, stderr, code = vd(t, bin, env, "", "upload", pid, dir)
	if code == 0 || !strings.Contains(stderr, "could not be recorded, so nothing was sent and no run was kept") {
		t.Fatalf("upload on a full disk: exit %d\n%s", code, stderr)
	}
	out, stderr, code = vd(t, bin, env, "", "uploads", "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("uploads after the failed plan: exit %d %s %s", code, out, stderr)
	}

	// Space is back.
	os.Remove(filler)
	if out, err := exec.Command("mount", "-o", "remount,size=4m", "tmpfs", home).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v %s", err, out)
	}
	if out, stderr, code := vd(t, bin, env, "", "upload", "--resume", "--json"); code != 0 || !strings.Contains(out, `"runs": []`) {
		t.Errorf("resume after the failed plan: exit %d %s %s", code, out, stderr)
	}
	if _, stderr, code := vd(t, bin, env, "", "upload", pid, dir); code != 0 {
		t.Fatalf("upload with space: exit %d %s", code, stderr)
	}
	out, stderr, code = vd(t, bin, env, "", "files", pid, "--json", "--name", "full-")
	var files []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &files); err != nil || code != 0 {
		t.Fatalf("files: %d %v %s", code, err, stderr)
	}
	names := map[string]bool{}
	for _, f := range files {
		names[f.Name] = true
	}
	if len(files) != 450 || len(names) != 450 {
		t.Errorf("the project holds %d files under %d names, want 450 once each", len(files), len(names))
	}
}
