package serve

import (
	"os"
	"sync/atomic"
)

// PromptInputLimit bounds what the token prompt takes between two presses
// of enter: a token is a few hundred bytes, so anything past this is not
// one, and is dropped as it is read, before the terminal library turns it
// into messages (a 1 MB paste took serve from 41 to 307 MB, issue 45).
const PromptInputLimit = 4096

// pasteEnd ends a bracketed paste; it is let through even while input is
// being dropped, or the terminal library would wait for it for good.
// pasteStart begins one.
var pasteEnd, pasteStart = []byte("\x1b[201~"), []byte("\x1b[200~")

// boundedInput is a session's program input, the pty's program side: while
// on (the login screen is up) it passes at most limit bytes between two
// enters and drops the rest, telling refused once per run it dropped. Off
// (the console's own prompts: filter, typed confirmation), where enter is
// rare and keys are many, it bounds each bracketed paste instead: limit
// bytes of its content pass, the rest up to the paste's end is dropped. It
// keeps the file's descriptor visible (Fd, Name), so the terminal library
// still puts the pty in raw mode and waits on it with its cancellable
// reader. Read is called by that reader's one goroutine only.
type boundedInput struct {
	f       *os.File
	limit   int
	on      atomic.Bool
	refused func() // set before the program runs

	n        int  // bytes passed since the last enter
	dropping bool // past the limit: dropping until enter or a paste's end
	matched  int  // bytes of pasteEnd seen in a row while dropping
	inPaste  bool // off: inside a bracketed paste
	started  int  // off: bytes of pasteStart seen in a row
}

func newBoundedInput(f *os.File, limit int) *boundedInput {
	b := &boundedInput{f: f, limit: limit}
	b.on.Store(true)
	return b
}

func (b *boundedInput) Fd() uintptr                 { return b.f.Fd() }
func (b *boundedInput) Name() string                { return b.f.Name() }
func (b *boundedInput) Write(p []byte) (int, error) { return b.f.Write(p) }

// Close leaves the pty open: it is the SSH library's to close.
func (b *boundedInput) Close() error { return nil }

// Read reads from the pty and, while on, filters in place. Returning no
// bytes and no error (all of a read dropped) makes the reader wait again.
func (b *boundedInput) Read(p []byte) (int, error) {
	n, err := b.f.Read(p)
	if n == 0 {
		return n, err
	}
	if !b.on.Load() {
		return b.filterPastes(p[:n]), err
	}
	return b.filter(p[:n]), err
}

// filterPastes keeps, in place, all of p but what a bracketed paste holds
// past limit bytes; the paste's start and end always pass.
func (b *boundedInput) filterPastes(p []byte) int {
	out := 0
	for _, c := range p {
		if !b.inPaste {
			switch {
			case c == pasteStart[b.started]:
				if b.started++; b.started == len(pasteStart) {
					b.inPaste, b.started, b.n, b.matched, b.dropping = true, 0, 0, 0, false
				}
			case c == pasteStart[0]:
				b.started = 1
			default:
				b.started = 0
			}
			p[out] = c
			out++
			continue
		}
		switch {
		case c == pasteEnd[b.matched]:
			b.matched++
		case c == pasteEnd[0]:
			b.matched = 1
		default:
			b.matched = 0
		}
		if b.matched == len(pasteEnd) {
			b.inPaste, b.dropping, b.n, b.matched = false, false, 0, 0
		} else if !b.dropping && b.matched == 0 { // the end's own bytes are not content
			if b.n++; b.n > b.limit {
				b.dropping = true
				if b.refused != nil {
					b.refused()
				}
			}
		}
		if b.dropping && b.matched == 0 {
			continue
		}
		p[out] = c
		out++
	}
	return out
}

// filter keeps what may pass of p, in place, and returns its length.
// While dropping, the bytes of a paste's end are let through as they come
// (matched counts how many so far): never more than was read, so in place
// is safe even when the marker is split across reads. Bytes that began to
// match and then did not are paste content the login screen ignores.
func (b *boundedInput) filter(p []byte) int {
	out := 0
	for _, c := range p {
		if b.dropping {
			switch {
			case c == '\r' || c == '\n':
				b.dropping, b.n, b.matched = false, 0, 0
			case c == pasteEnd[b.matched]:
				if b.matched++; b.matched == len(pasteEnd) {
					b.dropping, b.n, b.matched = false, 0, 0
				}
			case c == pasteEnd[0]:
				b.matched = 1
			default:
				b.matched = 0
				continue
			}
			p[out] = c
			out++
			continue
		}
		if c == '\r' || c == '\n' {
			b.n = 0
		} else if b.n++; b.n > b.limit {
			b.dropping, b.matched = true, 0
			if b.refused != nil {
				b.refused()
			}
			continue
		}
		p[out] = c
		out++
	}
	return out
}
