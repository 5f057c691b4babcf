package matters

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTheMatterFileIsReadWithABoundAndWithoutBlocking: `matters delete
// FIFO` (and the console's :matters) hung in open(2) for ever. A pipe, a
// device or a file over the bound is refused at once, by name; "-" is
// standard input only where there is one.
func TestTheMatterFileIsReadWithABoundAndWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pairs.csv")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.csv")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 600_000_000); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, fifo + ": is a named pipe (FIFO), not a regular file: the matter file must be one"},
		{"/dev/zero", "/dev/zero: is a character device, not a regular file"},
		{big, big + ": is 600 MB, over the 500 MB a matter file may be"},
		{"-", "-: no such file or directory"}, // the console has no stdin
	} {
		done := make(chan error, 1)
		go func() {
			f, err := Open(c.path, nil)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want an error saying %q", c.path, err, c.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: Open still blocked after 20 s", c.path)
		}
	}
	in, err := Open("-", strings.NewReader("C1,M1\nC2,M2\n"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	f, err := Read(in, Auto)
	if err != nil || len(f.Pairs) != 2 {
		t.Fatalf("stdin: %v, %v", f, err)
	}
}
