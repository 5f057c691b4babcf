package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// requireOpenSSH is the real ssh client (.ci/run installs it): what these
// tests drive is what OpenSSH sends, not what the Go client does.
func requireOpenSSH(t testing.TB) string {
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

// keyFile is a client key with its private half in an OpenSSH file.
type keyFile struct {
	signer gossh.Signer
	line   string // the authorized-keys line, without options or comment
	path   string
}

func newKeyFile(t testing.TB) keyFile {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return keyFile{signer: s, line: strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey()))), path: path}
}

// openssh is the command line of the real client against f with the key
// file at path and extra options.
func (f *fixture) openssh(t testing.TB, path string, extra ...string) *exec.Cmd {
	t.Helper()
	bin := requireOpenSSH(t)
	host, port, err := net.SplitHostPort(f.addr)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-F", "/dev/null", "-p", port, "-i", path, "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"}
	args = append(append(args, extra...), "admin@"+host)
	return exec.Command(bin, args...)
}

// writeKeys replaces the authorized-keys file's content.
func (f *fixture) writeKeys(t testing.TB, body string) {
	t.Helper()
	if err := os.WriteFile(f.srv.cfg.AuthorizedKeys, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}
