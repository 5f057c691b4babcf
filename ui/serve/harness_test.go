package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// syncBuf is a goroutine-safe buffer (server log, session output).
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuf) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

// counter wraps the simulator and counts requests per path, the way the
// service's own rate limiter would see them.
type counter struct {
	h    http.Handler
	mu   sync.Mutex
	n    map[string]int
	held map[string]bool // paths that never answer (a hung gateway)
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.n[r.URL.Path]++
	held := c.held[r.URL.Path]
	c.mu.Unlock()
	if held {
		<-r.Context().Done() // until the client gives up
		return
	}
	c.h.ServeHTTP(w, r)
}

// hold makes path never answer.
func (c *counter) hold(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held == nil {
		c.held = map[string]bool{}
	}
	c.held[path] = true
}

func (c *counter) count(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[path]
}

const binPath = "/api/v1/vault/workspace/recycle_bin"

// fixture is a running server with a simulator-backed profile "sim" (token
// from a systemd credential) and two client keys: bound to "sim", and not
// bound (login screen). The bound key has the write option (writes still
// need AllowWrites).
type fixture struct {
	t       testing.TB
	sim     *sim.Server
	hits    *counter
	srv     *Server
	addr    string
	log     *syncBuf
	bound   gossh.Signer
	unbound gossh.Signer
	stop    func() error // SIGTERM
	home    string
	baseURL string // the simulator's
}

func newKey(t testing.TB) (gossh.Signer, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s, strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
}

func startServer(t testing.TB, mod ...func(*Config)) *fixture {
	return startServerSim(t, sim.Options{Seed: sim.DefaultSeed}, mod...)
}

// startServerSim is startServer on a simulator with opts.
func startServerSim(t testing.TB, opts sim.Options, mod ...func(*Config)) *fixture {
	t.Helper()
	f := &fixture{t: t, log: &syncBuf{}, home: t.TempDir()}
	e := simtest.Start(t, simtest.Options{Sim: opts, Wrap: func(next http.Handler) http.Handler {
		f.hits = &counter{h: next, n: map[string]int{}}
		return f.hits
	}})
	f.sim, f.baseURL = e.Sim, e.URL

	st, err := store.Open(filepath.Join(f.home, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveProfile(store.Profile{Name: "sim", BaseURL: f.baseURL}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	creds := filepath.Join(f.home, "creds")
	if err := os.MkdirAll(creds, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(creds, "sim"), []byte(f.sim.Token("admin")+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	var boundLine, unboundLine string
	f.bound, boundLine = newKey(t)
	f.unbound, unboundLine = newKey(t)
	keys := filepath.Join(f.home, "authorized_keys")
	body := fmt.Sprintf("# admins\n%s,%s=\"sim\" %s alice@laptop\n%s bob@desk\n", WritesOption, ProfileOption, boundLine, unboundLine)
	if err := os.WriteFile(keys, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"VAULTDECK_HOME": f.home, "CREDENTIALS_DIRECTORY": creds}
	ready := make(chan net.Addr, 1)
	cfg := Config{
		Listen: "127.0.0.1:0", AuthorizedKeys: keys, Flags: account.Flags{BaseURL: f.baseURL},
		Getenv: func(k string) string { return env[k] },
		Logger: slog.New(slog.NewTextHandler(f.log, nil)),
		Ready:  func(a net.Addr) { ready <- a },
	}
	for _, m := range mod {
		m(&cfg)
	}
	f.srv, err = New(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.closeGrace = 0 // the test client keeps its connection; nothing to wait for
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.srv.Serve(ctx) }()
	var once sync.Once
	var serveErr error
	f.stop = func() error {
		once.Do(func() { cancel(); serveErr = <-done; f.srv.Close() })
		return serveErr
	}
	t.Cleanup(func() { _ = f.stop() })
	select {
	case a := <-ready:
		f.addr = a.String()
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	return f
}

func (f *fixture) dial(auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", f.addr, &gossh.ClientConfig{
		User: "admin", Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second,
	})
}

// term is one pty session seen from the client side.
type term struct {
	t    testing.TB
	sess *gossh.Session
	in   io.WriteCloser
	out  *syncBuf
	done chan error
}

// open connects with key and opens a 120x40 pty session with a shell.
func (f *fixture) open(key gossh.Signer, env map[string]string) *term {
	f.t.Helper()
	c, err := f.dial(gossh.PublicKeys(key))
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { c.Close() })
	return openPty(f.t, c, env)
}

func openPty(t testing.TB, c *gossh.Client, env map[string]string) *term {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range env {
		if err := s.Setenv(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, sess: s, out: &syncBuf{}, done: make(chan error, 1)}
	if tm.in, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, _ := s.StdoutPipe()
	s.Stderr = tm.out
	go tm.pump(stdout)
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() { tm.done <- s.Wait() }()
	return tm
}

// pump collects the output and answers the terminal queries a real
// terminal answers (background colour, primary device attributes).
func (tm *term) pump(r io.Reader) {
	buf := make([]byte, 32<<10)
	answered := false
	for {
		n, err := r.Read(buf)
		if n > 0 {
			tm.out.Write(buf[:n])
			if !answered && strings.Contains(tm.out.String(), "\x1b[c") {
				answered = true
				io.WriteString(tm.in, "\x1b]11;rgb:0000/0000/0000\x07\x1b[?62;c")
			}
		}
		if err != nil {
			return
		}
	}
}

func (tm *term) text() string { return ansi.Strip(tm.out.String()) }

// waitFor waits, with a deadline, until the session's output shows s.
func (tm *term) waitFor(s string) {
	tm.t.Helper()
	waitUntil(tm.t, fmt.Sprintf("%q on the screen", s), func() bool { return strings.Contains(tm.text(), s) }, func() string {
		return tm.text()
	})
}

func (tm *term) send(keys string) {
	tm.t.Helper()
	if _, err := io.WriteString(tm.in, keys); err != nil {
		tm.t.Fatal(err)
	}
}

// exit waits for the session to end and returns its exit status.
func (tm *term) exit() int {
	tm.t.Helper()
	select {
	case err := <-tm.done:
		var ee *gossh.ExitError
		if errors.As(err, &ee) {
			return ee.ExitStatus()
		}
		if err != nil {
			tm.t.Fatalf("session: %v", err)
		}
		return 0
	case <-time.After(15 * time.Second):
		tm.t.Fatalf("session did not end; screen:\n%s", tm.text())
	}
	return -1
}

func waitUntil(t testing.TB, what string, cond func() bool, show func() string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; got:\n%s", what, show())
		}
		time.Sleep(5 * time.Millisecond) // polls a condition; the deadline is the only timing
	}
}

// total is every request the simulator saw.
func (c *counter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.n {
		n += v
	}
	return n
}
