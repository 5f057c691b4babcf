package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUploadKilledAndResumed uploads a folder through the built binary,
// kills it with SIGKILL as soon as the first batch has arrived, then runs
// `upload --resume`: every file must be in the project exactly once, and
// `uploads --json` must list the run as finished.
func TestUploadKilledAndResumed(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit")
	home := t.TempDir()
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + home, "VAULTDECK_BASE_URL=" + sp.base}

	out, stderr, code := vd(t, bin, env, "", "projects", "--json")
	if code != 0 {
		t.Fatalf("projects: %d %s", code, stderr)
	}
	var projects []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &projects); err != nil || len(projects) == 0 {
		t.Fatalf("projects: %v", err)
	}
	pid := projects[0].ID
	before := countFiles(t, sp, pid)

	const n = 240
	dir := filepath.Join(t.TempDir(), "export")
	for i := range n {
		b := make([]byte, 512<<10)
		copy(b, fmt.Sprintf("document %d", i))
		p := filepath.Join(dir, fmt.Sprintf("matter-%d", i%3), fmt.Sprintf("e2e-%03d.pdf", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cmd := exec.Command(bin, "upload", pid, dir, "--mode", "keep")
	cmd.Env = childEnv(t, nil, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	atKill := before
	for atKill == before && time.Now().Before(deadline) {
		atKill = countFiles(t, sp, pid)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if atKill == before || atKill >= before+n {
		t.Fatalf("the kill did not land mid-upload: %d of %d files had arrived", atKill-before, n)
	}
	t.Logf("killed with %d of %d files arrived", atKill-before, n)

	out, stderr, code = vd(t, bin, env, "", "upload", "--resume", "--json")
	if code != 0 {
		t.Fatalf("resume: %d %s %s", code, out, stderr)
	}

	names := map[string]int{}
	out, stderr, code = vd(t, bin, env, "", "files", pid, "--json", "--name", "e2e-")
	if code != 0 {
		t.Fatalf("files: %d %s", code, stderr)
	}
	var files []struct{ Name string }
	if err := json.Unmarshal([]byte(out), &files); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		names[f.Name]++
	}
	if len(files) != n || len(names) != n {
		t.Errorf("project holds %d e2e files under %d names, want %d exactly once each", len(files), len(names), n)
	}
	for i := range n {
		if c := names[fmt.Sprintf("e2e-%03d.pdf", i)]; c != 1 {
			t.Errorf("e2e-%03d.pdf is in the project %d times", i, c)
		}
	}

	out, _, code = vd(t, bin, env, "", "uploads", "--json")
	var runs []struct {
		State    string
		Uploaded int
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil || code != 0 || len(runs) != 1 || runs[0].State != "finished" || runs[0].Uploaded != n {
		t.Errorf("uploads --json: %d %v %s", code, err, out)
	}
}

// countFiles asks the simulator directly (fast, no process) how many files
// the project lists.
func countFiles(t *testing.T, sp simProcess, pid string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", sp.base+"/api/v1/vault/projects/"+pid+"/files?limit=1", nil)
	req.Header.Set("Authorization", "Bearer "+sp.tokens["admin"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Response struct {
			Content struct {
				Pagination struct {
					TotalCount int `json:"total_count"`
				} `json:"pagination"`
			} `json:"content"`
		} `json:"response"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return body.Response.Content.Pagination.TotalCount
}

// On a terminal the CLI draws one progress line on stderr; into a pipe or
// under --json it draws nothing (TestUploadCommand checks that side).
func TestUploadProgressLineOnATerminal(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit")
	home := t.TempDir()
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + home, "VAULTDECK_BASE_URL=" + sp.base}
	out, _, _ := vd(t, bin, env, "", "projects", "--json")
	var projects []struct{ ID string }
	if err := json.Unmarshal([]byte(out), &projects); err != nil || len(projects) == 0 {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range 3 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("tty-%d.pdf", i)), []byte("x"), 0o644)
	}
	s := startTmux(t, append(env, "TERM=xterm-256color"), "sh", "-c",
		bin+" upload "+projects[0].ID+" "+dir+` >/dev/null; echo "EXITED $?"; sleep 600`)
	sc := s.waitForText("EXITED")
	if !strings.Contains(sc, "EXITED 0") || !strings.Contains(sc, "files 3/3") || !strings.Contains(sc, "batch 1/1") {
		t.Errorf("no progress line on the terminal:\n%s", sc)
	}
}
