package serve

import (
	"fmt"
	"io"
	"os"
	"time"
)

// Bounds on how long a session's last line waits for the program's output
// to leave the pty (400 looks 5ms apart: two seconds): a client that
// stopped reading must not hold the session, or a server's shutdown, open.
const (
	ptyDrainLooks = 400
	ptyDrainEvery = 5 * time.Millisecond
)

// writeLastLine writes the session's closing line on the channel after the
// program's own output. The program writes to the pty, and the SSH library
// copies the pty to the channel in its own goroutine; a line written
// straight to the channel can overtake bytes still queued in the pty, and
// the program's last ones leave the alternate screen, which then erases the
// line (seen once in five loaded runs of TestSSHHeaderAndGoodbyeLines). So
// the line waits, bounded, until the pty's output queue is empty.
func writeLastLine(ch io.Writer, master *os.File, line string) {
	if master != nil {
		waitDrained(func() (int, bool) { return ptyQueued(master) }, ptyDrainLooks, func() { time.Sleep(ptyDrainEvery) })
	}
	fmt.Fprint(ch, line)
}

// waitDrained looks at most looks times until queued says nothing is left
// (or cannot say), pausing between looks.
func waitDrained(queued func() (int, bool), looks int, pause func()) {
	for range looks {
		if n, ok := queued(); !ok || n == 0 {
			return
		}
		pause()
	}
}
