package api

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCAFileIsReadWithABoundAndWithoutBlocking: --ca-file /dev/zero once
// read until the kernel killed the process, and a named pipe as the CA file
// hung it for ever in open(2). Each is refused at once, naming the file and
// what it is.
func TestCAFileIsReadWithABoundAndWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "ca.pem")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// A sparse 2 GB file: nothing to read but zeros, and too many of them.
	sparse := filepath.Join(dir, "huge.pem")
	if err := os.WriteFile(sparse, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, 2<<30); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, fifo + ": is a named pipe (FIFO), not a regular file"},
		{sparse, sparse + ": is 2.1 GB, over the 4.2 MB a CA file may be"},
		{"/dev/zero", "/dev/zero: is a character device, not a regular file"},
		{dir, dir + ": is a folder, not a regular file"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := New(Config{BaseURL: "https://vault.example", CAFile: c.path})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("CA file %s: %v, want an error saying %q", c.path, err, c.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("CA file %s: New still reading after 20 s", c.path)
		}
	}
}
