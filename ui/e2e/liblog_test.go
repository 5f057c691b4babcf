package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
	"github.com/vaultdeck/vaultdeck/store"
)

// logStamp is the standard log package's own prefix (date and time): a
// line that carries it was written by a library straight to the stream.
var logStamp = regexp.MustCompile(`(?m)^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d `)

// wireFaultsOfCase1 are the answers that made Go's transport log an
// "Unsolicited response" with the bytes the server sent (issue 40, case 1).
var wireFaultsOfCase1 = []faultserver.Fault{faultserver.Surplus, faultserver.NoContentBody}

// TestLibraryLogsNeverReachAStreamRaw: a server that sends bytes after an
// answer's end (a 200 past its Content-Length, a 204 with a body) echoing
// the token made Go's transport print them, token and all, through the
// standard log package on stderr. Every line a headless command writes is
// its own ("vaultdeck ..."), and none holds the token. And those bytes fail
// the request: the command exits 1 saying the protocol was broken, where
// with the 200 it printed the answer and exited 0.
func TestLibraryLogsNeverReachAStreamRaw(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	for _, fault := range wireFaultsOfCase1 {
		t.Run(string(fault), func(t *testing.T) {
			t.Parallel()
			s := faultserver.Start(fault)
			t.Cleanup(s.Close)
			for _, args := range [][]string{{"whoami"}, {"projects"}, {"recycle-bin", "--json"}} {
				cmd := exec.Command(bin, append([]string{"--base-url", s.URL, "--timeout", "5s"}, args...)...)
				cmd.Env = childEnv(t, nil, "VAULTDECK_TOKEN="+faultToken, "VAULTDECK_HOME="+t.TempDir())
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				all := out.String() + errb.String()
				if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(errb.String(), "broke the protocol") {
					t.Errorf("%v: exit %d (%v), want 1 and the protocol named:\n%s", args, code, err, all)
				}
				if strings.Contains(strings.ToLower(all), "secret") {
					t.Errorf("%v: the token reached a stream:\n%s", args, all)
				}
				if logStamp.MatchString(errb.String()) {
					t.Errorf("%v: a library wrote to stderr itself:\n%s", args, errb.String())
				}
			}
		})
	}
}

// TestLibraryLogsNeverDrawnOverTheConsole: the same answers under the
// console: nothing is written over its screen (the standard log's lines
// went to the terminal at its bottom rows): a library's line is the status
// line's, and the token is nowhere on it.
func TestLibraryLogsNeverDrawnOverTheConsole(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := faultserver.Start(faultserver.Surplus)
	t.Cleanup(s.Close)
	tm := startTmuxSized(t, "120", "40", []string{"TERM=xterm-256color", "VAULTDECK_TOKEN=" + faultToken},
		bin, "--base-url", s.URL, "--timeout", "5s")
	sc := tm.waitFor("the projects view to settle", func(sc string) bool {
		return strings.Contains(sc, "Projects") && s.Requests() >= 2 && !strings.Contains(sc, "loading")
	})
	tm.keys("r") // a second round of requests on the same connections
	tm.waitFor("the refresh", func(string) bool { return s.Requests() >= 3 })
	for _, sc := range []string{sc, tm.screen()} {
		if strings.Contains(strings.ToLower(sc), "secret") {
			t.Errorf("the token is on the screen:\n%s", sc)
		}
		if logStamp.MatchString(sc) {
			t.Errorf("a library's log line is drawn over the console:\n%s", sc)
		}
		for _, line := range strings.Split(sc, "\n") {
			if strings.Contains(line, "Unsolicited") && !strings.HasPrefix(line, "library: ") {
				t.Errorf("a library's log line is drawn outside the status line: %q", line)
			}
		}
	}
	tm.keys("q")
}

// TestLibraryLogsInServesLogRedacted: the same answers to serve's sessions:
// serve's log holds only its own lines (slog's, key=value), none with the
// token, where the standard log's went to its stderr three times.
func TestLibraryLogsInServesLogRedacted(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	sshBin := requireSSH(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	s := faultserver.Start(faultserver.Surplus)
	t.Cleanup(s.Close)
	sv := startServeBound(t, bin, s.URL, faultToken)
	tm := startTmuxSized(t, "120", "40", []string{"TERM=xterm-256color"}, sv.ssh(sshBin)...)
	tm.waitFor("the projects view to settle", func(sc string) bool {
		return strings.Contains(sc, "Projects") && s.Requests() >= 2 && !strings.Contains(sc, "loading")
	})
	if sc := tm.screen(); strings.Contains(strings.ToLower(sc), "secret") || logStamp.MatchString(sc) {
		t.Errorf("the session's screen:\n%s", sc)
	}
	tm.keys("q")
	tm.waitForText("EXITED")
	logs := sv.stop(t)
	if strings.Contains(strings.ToLower(logs), "secret") {
		t.Errorf("the token is in serve's log:\n%s", logs)
	}
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		if !strings.HasPrefix(line, "time=") {
			t.Errorf("a line of serve's log is not its own: %q", line)
		}
	}
}

// servedBound is a `vaultdeck serve` with one key bound to a profile.
type servedBound struct {
	cmd     *exec.Cmd
	cancel  context.CancelFunc
	port    string
	keyFile string
	logs    *lockedLines
	scanned chan struct{}
}

// startServeBound starts serve with a profile "faulty" at base, its token
// a systemd-style credential, and one client key bound to it.
func startServeBound(t *testing.T, bin, base, tok string) *servedBound {
	t.Helper()
	home, creds, keys := t.TempDir(), t.TempDir(), t.TempDir()
	st, err := store.Open(filepath.Join(home, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveProfile(store.Profile{Name: "faulty", BaseURL: base}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if err := os.WriteFile(filepath.Join(creds, "faulty"), []byte(tok+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	keyFile, line := writeClientKey(t, keys)
	authorized := filepath.Join(keys, "authorized_keys")
	if err := os.WriteFile(authorized, []byte(`vaultdeck-profile="faulty" `+line+" e2e@tmux\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, bin, "serve", "--listen", "127.0.0.1:0", "--authorized-keys", authorized, "--timeout", "5s")
	cmd.Env = childEnv(t, []string{"VAULTDECK_TOKEN"}, "VAULTDECK_HOME="+home, "CREDENTIALS_DIRECTORY="+creds)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sv := &servedBound{cmd: cmd, cancel: cancel, keyFile: keyFile, logs: &lockedLines{}, scanned: make(chan struct{})}
	listening := make(chan string, 1)
	go func() {
		defer close(sv.scanned)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		once := sync.Once{}
		for sc.Scan() {
			sv.logs.add(sc.Text())
			if strings.Contains(sc.Text(), "serving the console over SSH") {
				once.Do(func() { listening <- sc.Text() })
			}
		}
	}()
	select {
	case line := <-listening:
		sv.port = servedPort(t, line)
	case <-sv.scanned:
		t.Fatalf("serve exited:\n%s", sv.logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start:\n%s", sv.logs.String())
	}
	return sv
}

// ssh is the command line of an ssh client into sv, kept alive in its pane
// after it exits ("EXITED status").
func (sv *servedBound) ssh(sshBin string) []string {
	return []string{"sh", "-c", fmt.Sprintf("%s -F /dev/null -p %s -i %s -o IdentitiesOnly=yes -o BatchMode=yes"+
		" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -t admin@127.0.0.1;"+
		" echo \"EXITED $?\"; sleep 600", sshBin, sv.port, sv.keyFile)}
}

// stop ends serve as SIGTERM does and returns everything it logged.
func (sv *servedBound) stop(t *testing.T) string {
	t.Helper()
	if err := sv.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	<-sv.scanned
	if err := sv.cmd.Wait(); err != nil {
		t.Errorf("serve exited with %v:\n%s", err, sv.logs.String())
	}
	return sv.logs.String()
}

// TestLibrariesLogOnlyThroughTheLogPackage is the inventory of the loggers
// the binary links. Every library that can log does it through the
// standard log package, which cli.RouteLibraryLogs points at the router
// (net/http's transport and its HTTP/2 half, the SSH libraries' debug
// lines, charmbracelet/ssh's forwarding, slog's default handler), except
// the writers below: each is linked, or not, as said, and why it does no
// harm is written beside it. A writer of the list that becomes linked (a
// library's own logger on os.Stderr, or one that takes the log package's
// output away) fails here, for its output to be routed too.
func TestLibrariesLogOnlyThroughTheLogPackage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	linked := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 3 && (f[1] == "T" || f[1] == "t") {
			linked[f[2]] = true
		}
	}
	for _, w := range []struct {
		symbol string
		linked bool
		why    string
	}{
		{"log.(*Logger).output", true, "the standard log package: routed"},
		{"github.com/charmbracelet/log.(*Logger).Log", false, "charmbracelet/log's logger writes to os.Stderr itself (wish's authorized-keys options and its Bubble Tea middleware use it; serve uses neither)"},
		{"github.com/charmbracelet/wish.WithAuthorizedKeys", false, "logs a bad key line through charmbracelet/log (serve reads its keys file itself)"},
		{"github.com/charmbracelet/wish/bubbletea.Middleware", false, "logs a program's error through charmbracelet/log (serve runs its programs itself)"},
		{"github.com/charmbracelet/bubbletea.LogToFile", false, "would take the standard log's output away from the router"},
		{"golang.org/x/crypto/ssh.BannerDisplayStderr", false, "an SSH client's banner, to os.Stderr"},
		{"github.com/godbus/dbus/v5.(*Conn).handleCall", true, "writes to os.Stderr when a reply of an object vaultdeck exported fails to encode; it exports none (the keyring only calls)"},
		{"github.com/spf13/cobra.CompDebug", true, "shell completion's debugging, on the shell's stderr inside `vaultdeck __complete` only: the command line's own words"},
		{"github.com/spf13/cobra.CheckErr", true, "help or usage that could not be written, said on os.Stderr: no server data"},
	} {
		if linked[w.symbol] != w.linked {
			t.Errorf("%s: linked %v, want %v (%s)", w.symbol, linked[w.symbol], w.linked, w.why)
		}
	}
}
