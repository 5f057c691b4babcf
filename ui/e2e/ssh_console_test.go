package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// servedSSH is `vaultdeck serve` running as a process on a simulator, with
// two client keys: one bound to the profile "sim", one bound to none.
type servedSSH struct {
	t                  *testing.T
	sshBin, port       string
	boundKey, loginKey string
	keysFile           string // the authorized keys
	home               string // serve's VAULTDECK_HOME
	logs               *lockedLines
	proc               *exec.Cmd
}

func startServed(t *testing.T, bin string, args ...string) *servedSSH {
	t.Helper()
	sshBin := requireSSH(t)
	sp := startSim(t, bin)
	home, creds, keys := t.TempDir(), t.TempDir(), t.TempDir()
	st, err := store.Open(filepath.Join(home, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveProfile(store.Profile{Name: "sim", BaseURL: sp.base}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if err := os.WriteFile(filepath.Join(creds, "sim"), []byte(sp.tokens["admin"]+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	boundKey, boundLine := writeClientKey(t, keys)
	loginDir := filepath.Join(keys, "login")
	if err := os.Mkdir(loginDir, 0o700); err != nil {
		t.Fatal(err)
	}
	loginKey, loginLine := writeClientKey(t, loginDir)
	authorized := filepath.Join(keys, "authorized_keys")
	body := `vaultdeck-profile="sim" ` + boundLine + " e2e@tmux\n" + loginLine + " guest@tmux\n"
	if err := os.WriteFile(authorized, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := exec.CommandContext(ctx, bin, append([]string{"serve", "--listen", "127.0.0.1:0", "--authorized-keys", authorized}, args...)...)
	srv.Env = childEnv(t, []string{"VAULTDECK_TOKEN"}, "VAULTDECK_HOME="+home, "CREDENTIALS_DIRECTORY="+creds)
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	s := &servedSSH{t: t, sshBin: sshBin, boundKey: boundKey, loginKey: loginKey, keysFile: authorized, home: home, logs: &lockedLines{}, proc: srv}
	listening, scanned := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			s.logs.add(sc.Text())
			if strings.Contains(sc.Text(), "serving the console over SSH") {
				once.Do(func() { listening <- sc.Text() })
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-scanned; _ = srv.Wait() })
	select {
	case line := <-listening:
		s.port = servedPort(t, line)
	case <-scanned:
		t.Fatalf("serve exited:\n%s", s.logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start:\n%s", s.logs.String())
	}
	return s
}

// client is the OpenSSH command line of a session with key; it runs under
// sh so the pane lives on after it and its exit status stays readable.
// LogLevel INFO: the client prints its own "Connection to … closed.".
func (s *servedSSH) client(key string) []string {
	cmd := fmt.Sprintf("%s -F /dev/null -p %s -i %s -o IdentitiesOnly=yes -o BatchMode=yes"+
		" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=INFO -t admin@127.0.0.1;"+
		" echo \"EXITED $?\"; sleep 600", s.sshBin, s.port, key)
	return []string{"sh", "-c", cmd}
}

// lines are the screen's lines, the last (empty) one after the final
// newline dropped.
func lines(screen string) []string {
	return strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
}

// footerOnLastLine reports whether the console's footer is the screen's
// last line and appears once: a console drawn at an old height leaves it
// higher up (and, after a shrink, twice).
func footerOnLastLine(screen string, rows int) bool {
	ls := lines(screen)
	return len(ls) == rows && strings.Contains(ls[rows-1], "? help") && strings.Count(screen, "? help") == 1
}

// Over SSH the console follows the window both ways: 80x24 -> 120x40 ->
// 80x24 redraws at each size (the footer on the last line, nothing of the
// old frame left), and the login screen does the same.
func TestSSHResizeBothWays(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	s := startServed(t, buildBinary(t))

	tm := startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, s.client(s.boundKey)...)
	tm.waitForText("1/12")
	tm.waitFor("the footer on line 24", func(sc string) bool { return footerOnLastLine(sc, 24) })
	tm.run("resize-window", "-t", "0", "-x", "120", "-y", "40")
	tm.waitFor("the footer on line 40 after growing", func(sc string) bool { return footerOnLastLine(sc, 40) })
	// the table is laid out for 120 columns: its right edge moved past 80
	tm.waitFor("rows drawn for 120 columns", func(sc string) bool {
		for _, l := range lines(sc) {
			if strings.Contains(l, "Acme Corp v. Halvorsen") && len([]rune(strings.TrimRight(l, " "))) > 80 {
				return true
			}
		}
		return false
	})
	tm.run("resize-window", "-t", "0", "-x", "80", "-y", "24")
	tm.waitFor("the footer on line 24 after shrinking", func(sc string) bool { return footerOnLastLine(sc, 24) })
	tm.keys("j")
	tm.waitForText("2/12")
	tm.run("resize-window", "-t", "0", "-x", "120", "-y", "40")
	tm.waitFor("the footer on line 40 after growing again", func(sc string) bool { return footerOnLastLine(sc, 40) })

	login := startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, s.client(s.loginKey)...)
	login.waitForText("API token:")
	const long = "Paste an API token to use for this"
	login.run("resize-window", "-t", "0", "-x", "120", "-y", "40")
	login.waitFor("the login screen redrawn at 120 columns", func(sc string) bool { return strings.Contains(sc, long) })
	login.run("resize-window", "-t", "0", "-x", "80", "-y", "24")
	login.waitFor("the login screen redrawn at 80 columns", func(sc string) bool {
		for _, l := range lines(sc) {
			if len([]rune(l)) > 80 {
				return false
			}
		}
		return strings.Contains(sc, "API token:")
	})
}

// Over SSH at 80 and 120 columns the header keeps READ-ONLY and the vault
// budget, and the goodbye lines (shutdown, idle timeout) end the line, so
// the client's own "Connection to … closed." starts at column 0.
func TestSSHHeaderAndGoodbyeLines(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := startServed(t, bin)
	header := func(sc string) string { return lines(sc)[0] }
	for _, size := range [][2]string{{"80", "24"}, {"120", "40"}} {
		tm := startTmuxSized(t, size[0], size[1], []string{"TERM=xterm-256color"}, s.client(s.boundKey)...)
		tm.waitForText("1/12")
		tm.waitFor("READ-ONLY and the budget in the header at "+size[0]+" columns", func(sc string) bool {
			h := header(sc)
			return strings.Contains(h, "READ-ONLY") && strings.Contains(h, "vault ") && strings.Contains(h, "sim")
		})
	}
	tm := startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, s.client(s.boundKey)...)
	tm.waitForText("1/12")
	if err := s.proc.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	tm.waitForText("EXITED")
	startsLine(t, tm, "vaultdeck: the server is shutting down; your session was closed")
	startsLine(t, tm, "Connection to 127.0.0.1 closed.")

	idle := startServed(t, bin, "--idle-timeout", "1s")
	tm = startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, idle.client(idle.boundKey)...)
	tm.waitForText("EXITED")
	startsLine(t, tm, "vaultdeck: closed after 1s without input")
	startsLine(t, tm, "Connection to 127.0.0.1 closed.")
}

// startsLine checks that text starts a line of the screen (column 0).
func startsLine(t *testing.T, tm *tmuxSession, text string) {
	t.Helper()
	sc := tm.screen()
	for _, l := range lines(sc) {
		if strings.HasPrefix(l, text) {
			return
		}
	}
	t.Errorf("%q does not start a line:\n%s", text, sc)
}

// Idle TCP connections and banner-only ones are closed once the login
// grace time passed, while an OpenSSH key login made before them keeps
// working and a new one gets in.
func TestSSHIdleConnectionsClosedLoginsWork(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	// The start limits are lifted (64 in all, none per address: all 50
	// come from 127.0.0.1) so that what is tried is the grace time alone.
	s := startServed(t, buildBinary(t), "--login-grace-time", "1s", "--max-startups", "64", "--per-source-max-startups", "0")
	first := startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, s.client(s.boundKey)...)
	first.waitForText("1/12")
	closed := make(chan string, 50)
	for i := range 50 {
		c, err := net.Dial("tcp", "127.0.0.1:"+s.port)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if i%2 == 1 {
			if _, err := c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n")); err != nil {
				t.Fatal(err)
			}
		}
		go func() {
			b, err := io.ReadAll(c) // until the server closes it
			if err != nil {
				closed <- "error: " + err.Error()
				return
			}
			closed <- string(b)
		}()
	}
	deadline := time.After(60 * time.Second)
	for i := range 50 {
		select {
		case got := <-closed:
			if !strings.HasPrefix(got, "SSH-2.0-") {
				t.Fatalf("connection %d ended with %q, not after its banner and grace time", i, got)
			}
		case <-deadline:
			t.Fatalf("%d of 50 idle connections still open", 50-i)
		}
	}
	first.keys("j")
	first.waitForText("2/12")
	second := startTmuxSized(t, "80", "24", []string{"TERM=xterm-256color"}, s.client(s.boundKey)...)
	second.waitForText("1/12")
}

// servedPort reads the port serve listens on from its "serving the console
// over SSH" line: serve is started on port 0, so no other test can take the
// port between a probe and the listen.
func servedPort(t *testing.T, line string) string {
	t.Helper()
	m := regexp.MustCompile(`\baddr=(\S+)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serve named no address: %s", line)
	}
	_, port, err := net.SplitHostPort(m[1])
	if err != nil {
		t.Fatalf("serve's address %q: %v", m[1], err)
	}
	return port
}
