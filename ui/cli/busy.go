package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// busyNotice says on a terminal that a write waits for another process's
// lock on the local database (store.Options.Busy): a command that waits
// 12 s for a sync or a sqlite3 shell must not look hung. At most one line
// every five seconds (the store tries again after each of SQLite's own
// waits); nothing when stderr is not a terminal, where nobody watches and a
// script reads only the outcome.
func busyNotice(w io.Writer) func(store.BusyWait) {
	var mu sync.Mutex
	var last time.Time
	return func(b store.BusyWait) {
		mu.Lock()
		defer mu.Unlock()
		if now := time.Now(); now.Sub(last) >= 5*time.Second {
			last = now
			// \r\x1b[K: an upload's progress line may be on screen.
			fmt.Fprintf(w, "\r\x1b[Kvaultdeck: %s...\n", b)
		}
	}
}
