package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/store"
)

// HostKeyName is the host key's file name in the state directory.
const HostKeyName = "ssh_host_ed25519_key"

// StateDir is where serve keeps its host key: systemd's StateDirectory=
// ($STATE_DIRECTORY) when run as a unit, else vaultdeck's data directory
// (VAULTDECK_HOME or the XDG data home). Never the working directory.
func StateDir(getenv func(string) string) (string, error) {
	if sd := getenv("STATE_DIRECTORY"); sd != "" {
		first, _, _ := strings.Cut(sd, ":") // systemd lists several when the unit names several
		if filepath.IsAbs(first) {
			return first, nil
		}
	}
	p, err := store.DefaultPaths(getenv)
	if err != nil {
		return "", err
	}
	return p.Data, nil
}

// HostKey loads the host key at path, generating an ed25519 key there
// (0600, in a 0700 directory) when there is none. A key file others can
// read is refused: whoever reads it can impersonate this server.
func HostKey(path string) (gossh.Signer, bool, error) {
	created := false
	f, err := localfile.Open(path, localfile.HostKey)
	if errors.Is(err, fs.ErrNotExist) {
		if err := generateHostKey(path); err != nil {
			return nil, false, err
		}
		created = true
		f, err = localfile.Open(path, localfile.HostKey)
	}
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	defer f.Close()
	// The mode of the file opened, not of the name looked at.
	if perm := f.Info().Mode().Perm(); perm&0o077 != 0 {
		return nil, false, fmt.Errorf("refusing the host key %s: other users can access it (mode %04o); run `chmod 600 %s`", path, perm, path)
	}
	b, err := f.ReadAll()
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	signer, err := gossh.ParsePrivateKey(b)
	if err != nil {
		return nil, false, fmt.Errorf("host key %s: %w", path, err)
	}
	return signer, created, nil
}

func generateHostKey(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("host key directory: %w", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("generating the host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "vaultdeck serve")
	if err != nil {
		return fmt.Errorf("encoding the host key: %w", err)
	}
	// O_EXCL: two servers starting at once must not overwrite each other's key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("writing the host key: %w", err)
	}
	if err := pem.Encode(f, block); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("writing the host key: %w", err)
	}
	return f.Close()
}
