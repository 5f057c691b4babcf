package serve

import (
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// rawConn is a TCP connection that speaks no SSH (or only its banner).
type rawConn struct {
	net.Conn
	got    []byte
	closed chan error // the read's end: nil for EOF
}

// dialRaw connects and, with banner, sends only the SSH version line.
// A reader collects what the server sends until it closes the connection.
func dialRaw(t *testing.T, addr string, banner bool) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return wrapRaw(t, c, banner)
}

// wrapRaw is dialRaw on a connection already made.
func wrapRaw(t *testing.T, c net.Conn, banner bool) *rawConn {
	t.Helper()
	t.Cleanup(func() { c.Close() })
	if banner {
		if _, err := io.WriteString(c, "SSH-2.0-OpenSSH_9.6\r\n"); err != nil {
			t.Fatal(err)
		}
	}
	rc := &rawConn{Conn: c, closed: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			rc.got = append(rc.got, buf[:n]...) // read by the test only after closed
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				rc.closed <- err
				return
			}
		}
	}()
	return rc
}

// waitClosed waits, with a deadline, for the server to close the
// connection and returns what it had sent.
func (rc *rawConn) waitClosed(t *testing.T, what string) string {
	t.Helper()
	select {
	case err := <-rc.closed:
		if err != nil && !strings.Contains(err.Error(), "reset") {
			t.Fatalf("%s: %v", what, err)
		}
		return string(rc.got)
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still open", what)
	}
	return ""
}

// Idle TCP connections, banner-only connections and a client that logs in
// but opens no session are all closed once the login grace time passed,
// while a session that began before them keeps working and new logins work.
func TestLoginGraceClosesIdleConnections(t *testing.T) {
	f := startServer(t, func(c *Config) {
		c.LoginGraceTime = 300 * time.Millisecond
		c.MaxStartups = Startups{Start: 64}
		c.PerSourceMaxStartups = -1
	})
	first := f.open(f.bound, nil)
	first.waitFor("1/12")
	var conns []*rawConn
	for i := range 30 {
		conns = append(conns, dialRaw(t, f.addr, i%2 == 1))
	}
	noSession, err := f.dial(gossh.PublicKeys(f.bound))
	if err != nil {
		t.Fatal(err)
	}
	defer noSession.Close()
	for i, rc := range conns {
		if got := rc.waitClosed(t, fmt.Sprintf("connection %d", i)); !strings.HasPrefix(got, "SSH-2.0-") {
			t.Fatalf("connection %d was refused rather than given its grace time: %q", i, got)
		}
	}
	waited := make(chan error, 1)
	go func() { waited <- noSession.Wait() }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		t.Fatal("a logged-in connection without a session is still open")
	}
	waitUntil(t, "no connection pending", func() bool { return f.srv.startups.Pending() == 0 },
		func() string { return fmt.Sprint(f.srv.startups.Pending(), " pending") })
	// the session that began first is older than the grace time now, and alive
	first.send("j")
	first.waitFor("2/12")
	second := f.open(f.bound, nil)
	second.waitFor("1/12")
}

// Past --max-startups (here 3:100:3) a new connection is closed at once,
// with a line saying why before the server's banner, when every pending
// one has spoken (none silent to close instead); a key login gets in again
// once one pending connection went away, and its session no longer counts
// as pending.
func TestMaxStartupsRefusesBeyond(t *testing.T) {
	f := startServer(t, func(c *Config) { c.LoginGraceTime = time.Hour; c.MaxStartups = Startups{Start: 3} })
	var idle []*rawConn
	for range 3 {
		idle = append(idle, dialRaw(t, f.addr, true))
	}
	waitUntil(t, "3 pending", func() bool { return f.srv.startups.Pending() == 3 },
		func() string { return fmt.Sprint(f.srv.startups.Pending(), " pending") })
	waitUntil(t, "3 spoken", func() bool { return f.srv.startups.silent() == 0 },
		func() string { return fmt.Sprint(f.srv.startups.silent(), " silent") })
	if got := dialRaw(t, f.addr, true).waitClosed(t, "the fourth connection"); got != reasonBusy+"\r\n" {
		t.Fatalf("the fourth connection got %q; want only the reason, before the banner", got)
	}
	if c, err := f.dial(gossh.PublicKeys(f.bound)); err == nil {
		c.Close()
		t.Fatal("a login past --max-startups got in")
	}
	idle[0].Close()
	waitUntil(t, "2 pending", func() bool { return f.srv.startups.Pending() == 2 },
		func() string { return fmt.Sprint(f.srv.startups.Pending(), " pending") })
	tm := f.open(f.bound, nil)
	tm.waitFor("1/12")
	if n := f.srv.startups.Pending(); n != 2 {
		t.Fatalf("%d pending with a session begun; want 2", n)
	}
	if n := strings.Count(f.log.String(), "refusing connections"); n != 1 {
		t.Fatalf("%d refusal lines; want one for the episode:\n%s", n, f.log.String())
	}
}

// A connection whose only session was refused by --max-sessions does not
// stay: it is still a startup, closed after the grace time.
func TestRefusedSessionConnectionDoesNotStay(t *testing.T) {
	f := startServer(t, func(c *Config) { c.MaxSessions = 1; c.LoginGraceTime = 300 * time.Millisecond })
	first := f.open(f.bound, nil)
	first.waitFor("1/12")
	c, err := f.dial(gossh.PublicKeys(f.bound))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	refused := openPty(t, c, nil)
	if code := refused.exit(); code != 1 {
		t.Fatalf("exit %d", code)
	}
	waited := make(chan error, 1)
	go func() { waited <- c.Wait() }()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		t.Fatal("the connection of a refused session is still open")
	}
	first.send("j")
	first.waitFor("2/12")
}

// A connection whose last session ended is a startup again: a client that
// keeps its connection after quitting (ControlPersist, or a script that
// opens connections and sessions and quits them) does not hold it beyond
// the grace time, however much keepalive traffic it sends.
func TestConnectionWithoutSessionsIsStartupAgain(t *testing.T) {
	f := startServer(t, func(c *Config) { c.LoginGraceTime = 300 * time.Millisecond })
	c, err := f.dial(gossh.PublicKeys(f.bound))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tm := openPty(t, c, nil)
	tm.waitFor("1/12")
	if n := f.srv.startups.Pending(); n != 0 {
		t.Fatalf("%d pending with a session running", n)
	}
	tm.send("q")
	if code := tm.exit(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	waited := make(chan error, 1)
	go func() { waited <- c.Wait() }()
	stop := make(chan struct{})
	defer close(stop)
	go func() { // keepalives: traffic without a session
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				_, _, _ = c.SendRequest("keepalive@openssh.com", true, nil)
			}
		}
	}()
	select {
	case <-waited:
	case <-time.After(20 * time.Second):
		t.Fatal("a connection without sessions is still open")
	}
	waitUntil(t, "no connection pending", func() bool { return f.srv.startups.Pending() == 0 },
		func() string { return fmt.Sprint(f.srv.startups.Pending(), " pending") })
}
