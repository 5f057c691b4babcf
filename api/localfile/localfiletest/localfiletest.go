// Package localfiletest makes the files an adversary hands a reader of local
// files (a named pipe, a sparse file past the bound, a link) and checks that
// a reader refuses each at once, by name. api/localfile proves the class for
// every Kind; the readers' own tests use this to prove they read through it.
package localfiletest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Case is a path and what the refusal must say.
type Case struct{ Path, Want string }

// FIFO makes a named pipe called name in dir: opened for reading without
// care, it blocks for ever.
func FIFO(t testing.TB, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := mkfifo(p); err != nil {
		t.Skip("no FIFO here:", err)
	}
	return p
}

// Sparse makes a file of size bytes that takes no room: read whole, it
// holds the process's memory hostage.
func Sparse(t testing.TB, dir, name string, size int64) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
	return p
}

// Refuses calls read on each case's path and fails unless it returns, within
// 20 s, an error containing the case's Want.
func Refuses(t *testing.T, what string, read func(path string) error, cases ...Case) {
	t.Helper()
	for _, c := range cases {
		done := make(chan error, 1)
		go func() { done <- read(c.Path) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.Want) {
				t.Errorf("%s %s: %v, want an error saying %q", what, c.Path, err, c.Want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s %s: still reading after 20 s (blocked on a FIFO, or reading without a bound)", what, c.Path)
		}
	}
}
