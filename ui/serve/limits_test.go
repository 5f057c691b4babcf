package serve

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/ui/console"
)

// Only listed public keys get in: an unknown key, a client with no key, a
// password and keyboard-interactive are all refused at authentication.
func TestOnlyListedKeysAuthenticate(t *testing.T) {
	f := startServer(t)
	stranger, _ := newKey(t)
	for name, auth := range map[string][]gossh.AuthMethod{
		"unknown key": {gossh.PublicKeys(stranger)},
		"no key":      nil,
		"password":    {gossh.Password(f.sim.Token("admin"))},
		"keyboard-interactive": {gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return []string{"x"}, nil
		})},
	} {
		c, err := f.dial(auth...)
		if err == nil {
			c.Close()
			t.Errorf("%s: admitted", name)
			continue
		}
		if !strings.Contains(err.Error(), "unable to authenticate") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if strings.Contains(f.log.String(), f.sim.Token("admin")) {
		t.Fatal("a password attempt (the token) reached the log")
	}
}

// A session without a pty, or with a command, gets one clear line and
// exit status 1; nothing runs on the server.
func TestNoPtyAndCommandsRefused(t *testing.T) {
	f := startServer(t)
	c, err := f.dial(gossh.PublicKeys(f.bound))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct{ cmd, want string }{
		{"", "the console needs a terminal"},
		{"cat /etc/passwd", "runs no commands"},
	} {
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		var stderr, stdout bytes.Buffer
		s.Stderr, s.Stdout = &stderr, &stdout
		if tc.cmd == "" {
			err = s.Shell()
			if err == nil {
				err = s.Wait()
			}
		} else {
			err = s.Run(tc.cmd)
		}
		var ee *gossh.ExitError
		if !errors.As(err, &ee) || ee.ExitStatus() != 1 {
			t.Errorf("%q: want exit status 1, got %v", tc.cmd, err)
		}
		if got := stderr.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, tc.want) {
			t.Errorf("%q: stderr %q, want one line with %q", tc.cmd, got, tc.want)
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: stdout %q", tc.cmd, stdout.String())
		}
	}
}

// The session over the limit is told so; the others are untouched.
func TestMaxSessions(t *testing.T) {
	f := startServer(t, func(c *Config) { c.MaxSessions = 1 })
	first := f.open(f.bound, nil)
	first.waitFor("1/12")
	second := f.open(f.bound, nil)
	if code := second.exit(); code != 1 {
		t.Fatalf("the refused session exited %d", code)
	}
	if !strings.Contains(second.text(), "maximum of 1 session") {
		t.Fatalf("refused session saw %q", second.text())
	}
	if !strings.Contains(second.out.String(), "--max-sessions\r\n") {
		t.Fatalf("the refusal on a terminal does not end with CRLF: %q", second.out.String())
	}
	first.send("j")
	first.waitFor("2/12")
}

// A session without input for the idle timeout is closed with a message.
func TestIdleTimeout(t *testing.T) {
	f := startServer(t, func(c *Config) { c.IdleTimeout = 300 * time.Millisecond })
	tm := f.open(f.bound, nil)
	tm.waitFor("1/12")
	if code := tm.exit(); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(tm.text(), "closed after 300ms without input") {
		t.Fatalf("screen: %q", tm.text())
	}
	// the client's terminal is raw: without a CR the client's own
	// "Connection to … closed." would start where this line ended
	if !strings.Contains(tm.out.String(), "closed after 300ms without input\r\n") {
		t.Fatalf("the goodbye line does not end with CRLF: %q", tm.out.String())
	}
	waitUntil(t, "the log line", func() bool { return strings.Contains(f.log.String(), "without input") }, f.log.String)
}

// SIGTERM (the server's context ending) tells each session why it ends,
// and Serve returns once they are gone.
func TestShutdownDrainsSessions(t *testing.T) {
	f := startServer(t)
	a, b := f.open(f.bound, nil), f.open(f.unbound, nil)
	a.waitFor("1/12")
	b.waitFor("API token:")
	if err := f.stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	for _, tm := range []*term{a, b} {
		if code := tm.exit(); code != 1 {
			t.Errorf("exit %d", code)
		}
		if !strings.Contains(tm.text(), "the server is shutting down") {
			t.Errorf("no shutdown message: %q", tm.text())
		}
		if !strings.Contains(tm.out.String(), "your session was closed\r\n") {
			t.Errorf("the goodbye line does not end with CRLF: %q", tm.out.String())
		}
	}
	if f.srv.Sessions() != 0 {
		t.Fatalf("%d sessions left", f.srv.Sessions())
	}
}

// A key bound to no profile logs in with a token that is never drawn,
// checked with whoami, and then gets the console; a wrong token is told so.
func TestLoginScreen(t *testing.T) {
	f := startServer(t)
	tm := f.open(f.unbound, nil)
	tm.waitFor("API token:")
	tm.waitFor("bob@desk SHA256:")
	tm.send("not-a-token\r")
	tm.waitFor("That token was not accepted")
	tok := f.sim.Token("admin")
	tm.send(tok + "\r")
	tm.waitFor("Acme Corp v. Halvorsen")
	tm.waitFor("vaultdeck 127.0.0.1:") // no profile chip: the host, by the console's rule
	tm.waitFor("key bob@desk SHA256:")
	tm.waitFor("· session token")
	tm.send("q")
	if code := tm.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(tm.out.String(), tok) || strings.Contains(tm.out.String(), "not-a-token") {
		t.Fatal("the typed token was drawn on the screen")
	}
	waitUntil(t, "the log line", func() bool { return strings.Contains(f.log.String(), "profile=login") }, f.log.String)
	// the session's in-memory answers go with its last session
	waitUntil(t, "the login cache to be dropped", func() bool {
		f.srv.mu.Lock()
		defer f.srv.mu.Unlock()
		return len(f.srv.caches) == 0
	}, func() string { return "caches still held" })
	if strings.Contains(f.log.String(), tok) {
		t.Fatal("the token reached the log")
	}
}

// No port forwarding either way: the server opens no connection for a
// client and listens on nothing for one.
func TestNoPortForwarding(t *testing.T) {
	f := startServer(t)
	c, err := f.dial(gossh.PublicKeys(f.bound))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if conn, err := c.Dial("tcp", f.addr); err == nil {
		conn.Close()
		t.Error("local port forwarding (direct-tcpip) was allowed")
	}
	if ln, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		ln.Close()
		t.Error("remote port forwarding (tcpip-forward) was allowed")
	}
	if ok, _, err := c.SendRequest("auth-agent-req@openssh.com", true, nil); err == nil && ok {
		// a connection-level agent request; the session-level one is
		// acknowledged by the SSH library, but no agent channel is ever opened
		t.Error("agent forwarding request accepted at connection level")
	}
}

// The program filter drops what would suspend the server-side program or
// run another program on the server, and notes input for the idle timeout.
func TestFilterDropsSuspendAndExec(t *testing.T) {
	a := newActivity()
	a.last.Store(0)
	if a.filter(nil, tea.Suspend()) != nil {
		t.Error("suspend passed")
	}
	if a.filter(nil, tea.ExecProcess(exec.Command("sh"), nil)()) != nil {
		t.Error("exec passed")
	}
	if a.filter(nil, tea.WindowSizeMsg{}) == nil || a.last.Load() != 0 {
		t.Error("a resize is not input")
	}
	if a.filter(nil, tea.KeyMsg{Type: tea.KeyDown}) == nil || a.idleFor(time.Now()) > time.Minute {
		t.Error("a key press did not count as input")
	}
}

// The token prompt reveals neither the token nor its length: the screen
// after one character is the screen after forty.
func TestLoginPromptHidesTokenLength(t *testing.T) {
	f := startServer(t)
	tm := f.open(f.unbound, nil)
	tm.waitFor("API token:")
	tm.send("s3cr")
	tm.waitFor("(hidden)")
	ss := &session{key: f.srv.keys.List[1]}
	m, err := newLogin(context.Background(), f.srv, ss, console.Options{Theme: "auto", Renderer: lipgloss.NewRenderer(io.Discard)})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")})
	one := m.View()
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("b", 39))})
	if forty := m.View(); forty != one {
		t.Fatalf("the prompt changed with the token's length:\n%s\nthen\n%s", one, forty)
	}
	if strings.Contains(promptOf(one), "a") {
		t.Fatalf("the token was drawn: %q", promptOf(one))
	}
}

func promptOf(screen string) string {
	_, after, _ := strings.Cut(screen, "API token:")
	line, _, _ := strings.Cut(after, "\n")
	return line
}

// At 80 columns the login screen's explanation and errors wrap rather
// than lose their end ("Paste an API token to use for th").
func TestLoginScreenWrapsAt80(t *testing.T) {
	f := startServer(t)
	m, err := newLogin(context.Background(), f.srv, &session{key: f.srv.keys.List[1]}, console.Options{Theme: "auto", Renderer: lipgloss.NewRenderer(io.Discard)})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(loginResult{err: errors.New("the service answered 401 Unauthorized: the token is not valid for this workspace or has been revoked by an administrator")})
	view := ansi.Strip(m.View())
	for _, l := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("a line is %d wide: %q", w, l)
		}
	}
	joined := strings.Join(strings.Fields(view), " ")
	for _, want := range []string{
		"Paste an API token to use for this session only: it is checked with whoami, kept in memory, and forgotten when you leave.",
		"has been revoked by an administrator",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("cut: %q is not on the screen:\n%s", want, view)
		}
	}
}
