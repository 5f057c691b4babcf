package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// procRSS is a process's resident set in bytes (Linux).
func procRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// SIGHUP re-reads the keys file instead of stopping serve: the removed
// key's open session is closed with a message, its next login is refused,
// the other key still logs in, and the server keeps running.
func TestSSHHangupReloadsKeys(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	s := startServed(t, buildBinary(t))
	bound := startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, s.client(s.boundKey)...)
	bound.waitForText("1/12")
	b, err := os.ReadFile(s.keysFile)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, "e2e@tmux") {
			keep = append(keep, l)
		}
	}
	if err := os.WriteFile(s.keysFile, []byte(strings.Join(keep, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.proc.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	bound.waitForText("no longer in the server's authorized keys")
	bound.waitForText("EXITED 1")
	again := startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, s.client(s.boundKey)...)
	again.waitForText("Permission denied")
	login := startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, s.client(s.loginKey)...)
	login.waitForText("API token:")
	if !strings.Contains(s.logs.String(), "why=SIGHUP") {
		t.Fatalf("no reload in the log:\n%s", s.logs.String())
	}
	if err := s.proc.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("serve stopped: %v", err)
	}
}

// A 1 MB paste into the token prompt through OpenSSH, as a terminal pastes
// (bracketed): refused with a line, and serve's resident memory stays within
// 10 MB of before (issue 45: 41 -> 307 MB).
func TestSSHMegabytePasteKeepsMemory(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	s := startServed(t, buildBinary(t))
	login := startTmuxSized(t, "120", "40", []string{"TERM=xterm-256color"}, s.client(s.loginKey)...)
	login.waitForText("API token:")
	before := procRSS(t, s.proc.Process.Pid)
	paste := filepath.Join(t.TempDir(), "paste")
	if err := os.WriteFile(paste, []byte(strings.Repeat("x", 1<<20)), 0o600); err != nil {
		t.Fatal(err)
	}
	login.run("load-buffer", paste)
	start := time.Now()
	login.run("paste-buffer", "-p", "-t", "0")
	login.waitForText("was refused")
	after := procRSS(t, s.proc.Process.Pid)
	t.Logf("serve's RSS %d -> %d KB; refused after %s", before>>10, after>>10, time.Since(start).Round(time.Millisecond))
	if after-before > 10<<20 {
		t.Fatalf("serve's memory grew by %d MB (%d -> %d MB)", (after-before)>>20, before>>20, after>>20)
	}
	login.keys("Enter")
	login.literal("still-typing")
	login.waitForText("(hidden)")
}
