package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDemoCleansUpOnSignal ends a running demo the way terminals and
// service managers do: SIGHUP (the tmux session is killed, the terminal
// closed) and SIGTERM. Like q, both must remove the demo's temporary home.
func TestDemoCleansUpOnSignal(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	for _, how := range []string{"SIGHUP", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			tmp := t.TempDir()
			s := startTmux(t, []string{"VAULTDECK_HOME=" + t.TempDir(), "TMPDIR=" + tmp, "TERM=xterm-256color"},
				"sh", "-c", "exec "+bin+" demo")
			s.waitForText("Projects ·")
			// The home is made once the first frame is out (issue 32).
			var homes []string
			for deadline := time.Now().Add(10 * time.Second); len(homes) == 0 && time.Now().Before(deadline); {
				homes, _ = filepath.Glob(filepath.Join(tmp, "vaultdeck-demo-*"))
				if len(homes) == 0 {
					time.Sleep(20 * time.Millisecond)
				}
			}
			if len(homes) != 1 {
				t.Fatalf("demo homes while running: %v", homes)
			}
			pid := strings.TrimSpace(s.run("display-message", "-p", "-t", "0", "#{pane_pid}"))
			if how == "SIGHUP" {
				s.run("kill-server") // the pane's process gets SIGHUP, as when a terminal closes
			} else if out, err := exec.Command("kill", "-TERM", pid).CombinedOutput(); err != nil {
				t.Fatalf("kill: %v %s", err, out)
			}
			// Wait (generously) for the process to end; then nothing may remain.
			// With SIGTERM the pane stays (remain-on-exit) and says when its
			// process ended; after kill-server the process is gone from tmux.
			ended := func() bool {
				if how == "SIGTERM" {
					dead, _ := s.paneDead()
					return dead
				}
				return exec.Command("kill", "-0", pid).Run() != nil
			}
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) && !ended() {
				time.Sleep(50 * time.Millisecond)
			}
			if !ended() {
				t.Fatalf("the demo did not end on %s", how)
			}
			if _, err := os.Stat(homes[0]); !os.IsNotExist(err) {
				t.Errorf("%s left the demo's home %s behind (%v)", how, homes[0], err)
			}
		})
	}
}
