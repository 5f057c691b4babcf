package console

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// libraryPending is how many library lines wait for the program at most:
// the status line shows one at a time, and a library that logs in a loop
// must not queue up work (or memory) behind the screen.
const libraryPending = 8

// libraryLines shows the libraries' log lines (ui/liblog) on p's status
// line: they are handed over without waiting (the router calls line with
// its lock held, from the library's goroutine), sent to the program by a
// goroutine of their own until stop, and dropped when libraryPending are
// already waiting.
func libraryLines(p *tea.Program) (line func(string), stop func()) {
	ch := make(chan string, libraryPending)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-ch:
				// Send returns once the program has taken it, or at once
				// when it has ended.
				p.Send(page.StatusMsg{Text: "library: " + s})
			case <-done:
				return
			}
		}
	}()
	return func(s string) {
			select {
			case ch <- s:
			default:
			}
		}, func() {
			close(done)
		}
}

// redactorOf is the console's backend's way of removing its token from a
// text (an *api.Client's Redact), or nil when it has none.
func redactorOf(b page.Backend) func(string) string {
	if r, ok := b.(interface{ Redact(string) string }); ok {
		return r.Redact
	}
	return nil
}
