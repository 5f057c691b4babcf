//go:build linux

package serve

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestLastLineWaitsForThePty: the program's last bytes (leaving the
// alternate screen) are still queued in the pty when the session ends; the
// closing line must reach the channel after the copier took them, or the
// client's terminal erases it. Here the copier runs only when the waiting
// pauses, so a line written without waiting lands first, every time.
func TestLastLineWaitsForThePty(t *testing.T) {
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pty here: %v", err)
	}
	defer master.Close()
	defer slave.Close()
	const program = "frame\x1b[?1049l"
	if _, err := io.WriteString(slave, program); err != nil {
		t.Fatal(err)
	}
	var ch strings.Builder
	copier := func() { // what the SSH library's io.Copy(channel, pty) does
		buf := make([]byte, len(program))
		if _, err := io.ReadFull(master, buf); err != nil {
			t.Error(err)
		}
		ch.Write(buf)
	}
	// The kernel moves the slave's bytes to the master's side on its own
	// time; look until they are there (bounded), as the copier would find them.
	n, ok := 0, false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if n, ok = ptyQueued(master); !ok || n == len(program) {
			break
		}
	}
	if !ok || n != len(program) {
		t.Fatalf("the pty says it holds %d bytes (ok %v); want the program's %d", n, ok, len(program))
	}
	waitDrained(func() (int, bool) { return ptyQueued(master) }, 3, copier)
	ch.WriteString("vaultdeck: the server is shutting down\r\n")
	if out := ch.String(); !strings.HasPrefix(out, program) {
		t.Fatalf("the closing line came before the program's last bytes: %q", out)
	}
}

// TestLastLineWaitIsBounded: a client that never reads leaves the queue
// full; the line is written after the bounded looks, not never.
func TestLastLineWaitIsBounded(t *testing.T) {
	looks := 0
	waitDrained(func() (int, bool) { looks++; return 10, true }, 4, func() {})
	if looks != 4 {
		t.Fatalf("looked %d times, want 4", looks)
	}
}
