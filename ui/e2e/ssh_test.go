package e2e

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/store"
)

// requireSSH skips without the OpenSSH client locally, but fails in CI,
// where .ci/run installs it.
func requireSSH(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("ssh")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ssh is not installed; .ci/run installs openssh-client")
		}
		t.Skip("ssh not installed")
	}
	return p
}

// writeClientKey writes an OpenSSH private key file (0600) and returns its
// path and its authorized-keys line.
func writeClientKey(t *testing.T, dir string) (string, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	signer, _ := gossh.NewSignerFromKey(priv)
	return path, strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))
}

// lockedLines collects a process's stderr.
type lockedLines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLines) add(s string) { l.mu.Lock(); l.b.WriteString(s + "\n"); l.mu.Unlock() }
func (l *lockedLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeWithOpenSSH runs `vaultdeck serve` as a process and connects
// with the real ssh client from tmux: the projects view of a profile bound
// by the authorized-keys line (token from a systemd-style credential),
// moving, filtering, quitting; colours follow NO_COLOR sent by the client;
// SIGTERM ends the server with one log line per session and no token.
func TestServeWithOpenSSH(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	sshBin := requireSSH(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
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
	tok := sp.tokens["admin"]
	if err := os.WriteFile(filepath.Join(creds, "sim"), []byte(tok+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	keyFile, line := writeClientKey(t, keys)
	authorized := filepath.Join(keys, "authorized_keys")
	if err := os.WriteFile(authorized, []byte(`vaultdeck-profile="sim" `+line+" e2e@tmux\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := exec.CommandContext(ctx, bin, "serve", "--listen", "127.0.0.1:0", "--authorized-keys", authorized)
	srv.Env = childEnv(t, []string{"VAULTDECK_TOKEN"}, "VAULTDECK_HOME="+home, "CREDENTIALS_DIRECTORY="+creds)
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	logs := &lockedLines{}
	listening := make(chan string, 1)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			logs.add(sc.Text())
			if strings.Contains(sc.Text(), "serving the console over SSH") {
				once.Do(func() { listening <- sc.Text() })
			}
		}
	}()
	var port string
	select {
	case line := <-listening:
		port = servedPort(t, line)
	case <-scanned:
		t.Fatalf("serve exited:\n%s", logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start:\n%s", logs.String())
	}

	// ssh runs under sh so the pane lives on after it: its last output and
	// exit status stay readable (a dead pane may drop the final bytes).
	sshCmd := func(extra string) []string {
		cmd := fmt.Sprintf("%s -F /dev/null -p %s -i %s -o IdentitiesOnly=yes -o BatchMode=yes"+
			" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -t %s admin@127.0.0.1;"+
			" echo \"EXITED $?\"; sleep 600", sshBin, port, keyFile, extra)
		return []string{"sh", "-c", cmd}
	}
	s := startTmuxSized(t, "120", "40", []string{"TERM=xterm-256color"}, sshCmd("")...)
	s.waitForText("Acme Corp v. Halvorsen")
	s.waitForText(" key e2e@tmux SHA256:")
	s.waitForText("1/12")
	s.keys("j")
	s.waitForText("2/12")
	s.keys("/")
	s.literal("Juniper")
	s.waitForText("1 of 1")
	colored := s.run("capture-pane", "-p", "-e", "-t", "0")
	if !strings.Contains(colored, "38;5;") && !strings.Contains(colored, "38;2;") {
		t.Errorf("no colour reached a 256-colour terminal:\n%q", colored)
	}
	s.keys("Enter")
	s.keys("q")
	s.waitForText("EXITED 0")

	// NO_COLOR from the client's environment: attributes, no colours
	mono := startTmuxSized(t, "120", "40", []string{"TERM=xterm-256color"}, sshCmd("-o SetEnv=NO_COLOR=1")...)
	mono.waitForText("Acme Corp v. Halvorsen")
	if sc := mono.run("capture-pane", "-p", "-e", "-t", "0"); strings.Contains(sc, "38;5;") || strings.Contains(sc, "38;2;") {
		t.Errorf("NO_COLOR session has colours:\n%q", sc)
	}

	// SIGTERM: the open session is told, the server exits 0
	if err := srv.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	mono.waitForText("EXITED 1")
	mono.waitForText("vaultdeck: the server is shutting down")
	<-scanned
	if err := srv.Wait(); err != nil {
		t.Errorf("serve exited with %v:\n%s", err, logs.String())
	}
	out := logs.String()
	if n := strings.Count(out, `msg="ssh session"`); n != 2 {
		t.Errorf("%d session lines, want 2:\n%s", n, out)
	}
	if strings.Contains(out, tok) {
		t.Fatal("the token reached the server log")
	}
}
