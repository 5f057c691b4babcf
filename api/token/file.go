package token

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/localfile"
)

// maxTokenBytes bounds what is read from a token file or stdin; real tokens
// are far shorter, and a huge file is a mistake, not a token.
const maxTokenBytes = 16 << 10

// checkPrivate refuses a file or directory that other users can read or
// write: a token another account can read is a leaked token. Windows has no
// Unix modes; there the per-user profile directory's ACL is what protects it.
func checkPrivate(path string, fi fs.FileInfo) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("refusing to use %s: other users can access it (mode %04o); run `chmod %s %s` if you trust it, or log in again",
			path, perm, map[bool]string{true: "700", false: "600"}[fi.IsDir()], path)
	}
	return nil
}

// readTokenFile reads a token file, returning ErrNotFound when there is none.
func readTokenFile(path string) (string, error) {
	di, err := os.Stat(filepath.Dir(path))
	if errors.Is(err, fs.ErrNotExist) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("the token directory cannot be read: %w", err)
	}
	if err := checkPrivate(filepath.Dir(path), di); err != nil {
		return "", err
	}
	// A symlink could point anywhere, including at a file whose mode we
	// cannot vouch for; only a plain file that we wrote is trusted (the
	// Token kind refuses a link, a pipe, a device, and more than a token).
	f, err := localfile.Open(path, localfile.Token)
	if errors.Is(err, fs.ErrNotExist) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("refusing to use the token file %w", err)
	}
	defer f.Close()
	// The mode of the file opened, not of the name looked at.
	if err := checkPrivate(path, f.Info()); err != nil {
		return "", err
	}
	b, err := f.ReadAll()
	if err != nil {
		return "", fmt.Errorf("the token file cannot be read: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", ErrNotFound
	}
	return tok, nil
}

// writeTokenFile writes the token atomically: a private temporary file in the
// same directory, synced, then renamed over the old one, so a crash leaves
// either the old token or the new one, never half of one.
func writeTokenFile(path, tok string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the token directory %s could not be created: %w", dir, err)
	}
	// MkdirAll leaves an existing directory's mode alone; tighten it.
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("the token directory %s could not be made private: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return fmt.Errorf("the token file could not be created in %s: %w", dir, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("the token file could not be made private: %w", err)
	}
	if _, err := f.WriteString(tok + "\n"); err != nil {
		return fmt.Errorf("the token file could not be written: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("the token file could not be flushed to disk: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("the token file could not be written: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("the token file could not be put in place: %w", err)
	}
	ok = true
	// Make the rename itself durable; best effort, not every OS allows it.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// removeTokenFile deletes the file, reporting whether there was one.
func removeTokenFile(path string) (bool, error) {
	err := os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("the token file %s could not be removed: %w", path, err)
	}
	return true, nil
}
