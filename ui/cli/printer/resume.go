package printer

import (
	"bytes"
	"io"

	"github.com/vaultdeck/vaultdeck/api"
)

// Resumable is stdout for a writer that waits out a full disk and then
// goes on from the first byte the stream refused (audit follow): what it
// is given is held, redacted, until Flush writes it; a write the stream
// refused keeps the rest for the next Flush, and the stream takes writes
// again once one succeeds (nothing was lost in between, so no hole).
type Resumable struct {
	p    *Printer
	red  *api.RedactingWriter // into pend
	pend bytes.Buffer
}

// NewResumable is p's stdout for a writer that tries again (a function,
// not a method: the Printer's methods are its streams and formats).
func NewResumable(p *Printer) *Resumable {
	r := &Resumable{p: p}
	r.red = p.secret.RedactingWriter(&r.pend)
	return r
}

// Write holds b (in memory: it never fails).
func (r *Resumable) Write(b []byte) (int, error) { return r.red.Write(b) }

// Flush writes what is held to stdout, from its first byte not yet
// written, or says why the stream refused it (what it did not take is
// still held).
func (r *Resumable) Flush() error {
	if err := r.red.Flush(); err != nil {
		return err
	}
	if r.p.out != nil && r.p.out.Buffered() > 0 { // what the printer's own buffer holds goes first
		if err := r.p.Flush(); err != nil {
			return err
		}
	}
	n, err := r.p.io.out.resume(r.pend.Bytes())
	r.pend.Next(n)
	return err
}

// resume writes b for a writer that goes on from the first byte refused
// (Resumable): a failure is kept, and said by Finish if nothing is written
// after it, but not final: the next write that succeeds clears it.
func (s *stream) resume(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := s.w.Write(b)
	n = max(0, min(n, len(b)))
	s.took += int64(n)
	s.offered += int64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		s.err = &StreamError{Stream: s.name, Err: err}
		return n, s.err
	}
	s.err = nil
	return n, nil
}
