package matters

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/localfile/localfiletest"
)

// TestTheMatterFileIsReadWithABoundAndWithoutBlocking: `matters delete
// FIFO` (and the console's :matters) hung in open(2) for ever. A pipe, a
// device or a file over the bound is refused at once, by name; "-" is
// standard input only where there is one.
func TestTheMatterFileIsReadWithABoundAndWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := localfiletest.FIFO(t, dir, "pairs.csv")
	big := localfiletest.Sparse(t, dir, "big.csv", 600_000_000)
	localfiletest.Refuses(t, "matter file", func(path string) error {
		f, err := Open(path, nil)
		if err == nil {
			f.Close()
		}
		return err
	},
		localfiletest.Case{Path: fifo, Want: fifo + ": is a named pipe (FIFO), not a regular file: the matter file must be one"},
		localfiletest.Case{Path: "/dev/zero", Want: "/dev/zero: is a character device, not a regular file"},
		localfiletest.Case{Path: big, Want: big + ": is 600 MB, over the 500 MB a matter file may be"},
		localfiletest.Case{Path: "-", Want: "-: no such file or directory"}, // the console has no stdin
	)
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
