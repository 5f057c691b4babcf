package e2e

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFirstSignalStopsABudgetWait: an upload waiting for the shared vault
// budget has sent nothing yet, so the first Ctrl-C (or SIGTERM) must stop it
// there, not let the wait run out and send the file the user just asked not
// to send. The batch is left for upload --resume to send (nothing to
// reconcile: nothing went out), and the command exits 3 saying so.
func TestFirstSignalStopsABudgetWait(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary and waits out the one-minute window")
	}
	bin := buildBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			sp := startSim(t, bin, "--control")
			env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + t.TempDir(), "VAULTDECK_BASE_URL=" + sp.base}
			pid := firstProject(t, bin, env)
			for range 9 {
				if _, stderr, code := vd(t, bin, env, "", "projects"); code != 0 {
					t.Fatalf("projects: %d %s", code, stderr)
				}
			}
			file := filepath.Join(t.TempDir(), "stopped-while-waiting.txt")
			os.WriteFile(file, []byte("the user stopped this before it was sent"), 0o644)
			cmd := exec.Command(bin, "upload", pid, file)
			cmd.Env = childEnv(t, nil, env...)
			errp, _ := cmd.StderrPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			sc := bufio.NewScanner(errp)
			waiting := false
			for sc.Scan() {
				stderr.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), "for the vault budget") {
					waiting = true
					if !strings.Contains(sc.Text(), "Ctrl-C stops here") {
						t.Errorf("the wait line does not say Ctrl-C stops there: %q", sc.Text())
					}
					break
				}
			}
			if !waiting {
				t.Fatalf("the upload never said it was waiting for the budget: %s", stderr.String())
			}
			_ = cmd.Process.Signal(sig)
			rest, _ := io.ReadAll(errp)
			stderr.Write(rest)
			_ = cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if code != 3 {
				t.Fatalf("after one %v during the budget wait: exit %d, want 3 (stopped, nothing sent)\n%s", sig, code, stderr.String())
			}
			if !strings.Contains(stderr.String(), "not sent") || !strings.Contains(stderr.String(), "--resume") {
				t.Errorf("the stop did not say the file was not sent and what to run: %s", stderr.String())
			}
			simControl(t, sp, "advance", `{"seconds": 120}`)
			if n := filesNamed(t, sp, pid, "stopped-while-waiting.txt"); n != 0 {
				t.Fatalf("the project holds %d files the stopped upload was not to send", n)
			}
			out, rerr, code := vd(t, bin, env, "", "upload", "--resume")
			if code != 0 || strings.Contains(rerr, "unproven") || strings.Contains(rerr, "lost") {
				t.Fatalf("resume: exit %d\n%s\n%s", code, out, rerr)
			}
			uploadedOnce(t, sp, bin, env, pid, "stopped-while-waiting.txt")
		})
	}
}
