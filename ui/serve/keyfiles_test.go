package serve

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKeyFilesAreReadWithABoundAndWithoutBlocking: --authorized-keys of a
// named pipe hung serve (and serve --check) in open(2) for ever, and
// /dev/zero was read until the process was killed. Each key file is
// refused at once, by name and by what it is.
func TestKeyFilesAreReadWithABoundAndWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "keys")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "host_key")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		load func() error
		want string
	}{
		{"authorized keys, a FIFO", func() error { _, err := LoadKeys(fifo); return err }, fifo + ": is a named pipe (FIFO), not a regular file"},
		{"authorized keys, /dev/zero", func() error { _, err := LoadKeys("/dev/zero"); return err }, "/dev/zero: is a character device, not a regular file"},
		{"host key, a FIFO", func() error { _, _, err := HostKey(fifo); return err }, fifo + ": is a named pipe (FIFO), not a regular file"},
		{"host key, a link to /dev/zero", func() error { _, _, err := HostKey(link); return err }, link + ": is a symbolic link"},
	} {
		done := make(chan error, 1)
		go func() { done <- c.load() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want an error saying %q", c.what, err, c.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: still reading after 20 s", c.what)
		}
	}
}
