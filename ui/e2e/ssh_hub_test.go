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

// Through OpenSSH against `serve --allow-writes`: a key without the write
// option cannot delete and says why; a key whose line grants it deletes a
// project, and `serve actions` and serve's log name that key, the project
// and the service's audit entry.
func TestSSHWritesPerKeyAndTheRecord(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := startServed(t, bin, "--allow-writes")
	reader := startTmuxSized(t, "120", "40", []string{"TERM=xterm-256color"}, s.client(s.boundKey)...)
	reader.waitForText("Acme Corp v. Halvorsen")
	reader.keys("Enter")
	reader.waitForText("Users")
	reader.literal("D")
	reader.waitForText("this key may not change the workspace")

	// a writer's line added while serve runs: read at its login
	dir := filepath.Join(t.TempDir(), "writer")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	writerKey, writerLine := writeClientKey(t, dir)
	f, err := os.OpenFile(s.keysFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`vaultdeck-writes,vaultdeck-profile="sim" ` + writerLine + " dana@firm\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	writer := startTmuxSized(t, "120", "40", []string{"TERM=xterm-256color"}, s.client(writerKey)...)
	writer.waitForText("Acme Corp v. Halvorsen")
	writer.keys("Enter")
	writer.waitForText("Users")
	writer.literal("D")
	writer.waitForText("Delete project")
	writer.literal("Acme Corp v. Halvorsen — Patent Litigation")
	writer.keys("Enter")
	writer.waitForText("will appear in the recycle bin")

	deadline := time.Now().Add(60 * time.Second)
	var out string
	for {
		var code int
		out, _, code = vd(t, bin, []string{"VAULTDECK_HOME=" + s.home}, "", "serve", "actions", "--json")
		if code == 0 && strings.Contains(out, `"audit_note":"1 entry`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve actions never showed the evidence:\n%s\nlog:\n%s", out, s.logs.String())
		}
		time.Sleep(200 * time.Millisecond) // polls the record; the deadline is the only timing
	}
	for _, want := range []string{`"key_comment":"dana@firm"`, `"what":"project deleted"`, `"outcome":"done"`, `"key_sha256":"SHA256:`} {
		if !strings.Contains(out, want) {
			t.Errorf("serve actions has no %s:\n%s", want, out)
		}
	}
	log := s.logs.String()
	for _, want := range []string{"hub action evidence", "dana@firm", "what=\"project deleted\"", "audit_entries="} {
		if !strings.Contains(log, want) {
			t.Errorf("serve's log has no %q:\n%s", want, log)
		}
	}
	if strings.Count(out, `"id":`) != 1 {
		t.Errorf("want one write in the record (the reader's D sent nothing):\n%s", out)
	}
}
