package api

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/api/localfile/localfiletest"
)

// TestCAFileIsReadWithABoundAndWithoutBlocking: --ca-file /dev/zero once
// read until the kernel killed the process, and a named pipe as the CA file
// hung it for ever in open(2). Each is refused at once, naming the file and
// what it is.
func TestCAFileIsReadWithABoundAndWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := localfiletest.FIFO(t, dir, "ca.pem")
	sparse := localfiletest.Sparse(t, dir, "huge.pem", 2<<30) // nothing but zeros, and too many of them
	localfiletest.Refuses(t, "CA file", func(path string) error {
		_, err := New(Config{BaseURL: "https://vault.example", CAFile: path})
		return err
	},
		localfiletest.Case{Path: fifo, Want: fifo + ": is a named pipe (FIFO), not a regular file"},
		localfiletest.Case{Path: sparse, Want: sparse + ": is 2.1 GB, over the 4.2 MB a CA file may be"},
		localfiletest.Case{Path: "/dev/zero", Want: "/dev/zero: is a character device, not a regular file"},
		localfiletest.Case{Path: dir, Want: dir + ": is a folder, not a regular file"},
	)
}
