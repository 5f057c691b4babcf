package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestLostStdoutOfTheBinary: the built binary with stdout on a full disk
// (/dev/full) or a pipe whose reader is gone exits 1 with one line saying
// what was written, as the printer does in process; a closed pipe is not a
// silent death by SIGPIPE (exit 141).
func TestLostStdoutOfTheBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	home := t.TempDir()
	for _, args := range [][]string{{"version"}, {"help", "projects"}, {"docs"}, {"profiles"}} {
		for _, to := range []string{"/dev/full", "a closed pipe"} {
			cmd := exec.Command(bin, args...)
			cmd.Env = childEnv(t, nil, "VAULTDECK_HOME="+home)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if to == "/dev/full" {
				f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
				if err != nil {
					t.Skip("no /dev/full here")
				}
				defer f.Close()
				cmd.Stdout = f
			} else {
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				r.Close() // the reader is gone before the first write
				defer w.Close()
				cmd.Stdout = w
			}
			err := cmd.Run()
			code := cmd.ProcessState.ExitCode()
			if ee, ok := err.(*exec.ExitError); err != nil && !ok {
				t.Fatal(err)
			} else if ok && !ee.Exited() {
				code = -1 // killed by a signal
			}
			want := "stdout failed: write /dev/stdout: no space left on device: nothing was written\n"
			if to != "/dev/full" {
				want = "stdout failed: write /dev/stdout: broken pipe: nothing was written\n"
			}
			if code != 1 || !strings.HasSuffix(errb.String(), want) || strings.Count(errb.String(), "\n") != 1 {
				t.Errorf("vaultdeck %s > %s: exit %d (%v), stderr %q", strings.Join(args, " "), to, code, err, errb.String())
			}
		}
	}
}
