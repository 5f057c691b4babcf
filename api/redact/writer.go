package redact

import (
	"bytes"
	"io"
	"sync"
)

// Writer is the last line of defence: everything written through
// it has the token removed, in any of the forms a server may echo it, even
// when a form is split across writes. It passes complete lines through at
// once, and of an unfinished line holds back only a tail that could be the
// beginning of the token, so Flush must be called at the end. Safe
// for concurrent use.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer
	red  func() Redactor
	pend []byte
}

// NewWriter wraps w, removing the token red gives at each write (a
// client's current one: none before its first request, when nothing from
// the server has been written).
func NewWriter(w io.Writer, red func() Redactor) *Writer {
	return &Writer{w: w, red: red}
}

func (rw *Writer) Write(p []byte) (int, error) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	// With nothing held back, p is read where it is: only what must wait
	// is copied.
	buf := p
	if len(rw.pend) > 0 {
		rw.pend = append(rw.pend, p...)
		buf = rw.pend
	}
	red := rw.red()
	may := red.mayContain(buf) // one look for the token over the whole write
	// Complete lines go out at once (a token never spans a line break); of
	// the unfinished line, only a tail that could be the start of the token
	// is held back, so prompts and \r progress lines still show at once.
	cut := bytes.LastIndexByte(buf, '\n') + 1
	cut = max(cut, heldFrom(red, buf, cut))
	if may {
		cut = safeCut(red, buf, cut)
	}
	var err error
	if cut > 0 {
		err = rw.emit(red, buf[:cut], may)
	}
	if len(rw.pend) > 0 {
		rw.pend = rw.pend[:copy(rw.pend, buf[cut:])]
	} else {
		rw.pend = append(rw.pend, buf[cut:]...)
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// heldFrom is where the part of b[from:] that must wait for more input
// begins: the first position, among the last few dozen bytes, from which
// the rest could still grow into a form of the token.
func heldFrom(red Redactor, b []byte, from int) int {
	if red.secret == "" {
		return len(b)
	}
	for p := max(from, len(b)-holdTail(red)); p < len(b); p++ {
		if red.couldStart(b[p:]) {
			return p
		}
	}
	return len(b)
}

// holdTail is longer than any escaped form of the token, with room for a
// few invisible characters (an escaped one, or a short run of raw ones)
// between each two of its characters. A longer run split across two reads
// of a stream could pass; the text on either side of one read is still
// redacted whole.
func holdTail(red Redactor) int { return 24*len(red.secret) + 16 }

// safeCut moves cut past any match in b that straddles it.
func safeCut(red Redactor, b []byte, cut int) int {
	if red.re == nil {
		return cut
	}
	for _, m := range red.re.FindAllIndex(b, -1) {
		if m[0] < cut && m[1] > cut {
			return m[1]
		}
	}
	return cut
}

// emit writes b with the token replaced; may is mayContain of b or of
// more than b.
func (rw *Writer) emit(red Redactor, b []byte, may bool) error {
	if may && red.mayContain(b) {
		b = red.re.ReplaceAllLiteral(b, []byte(Redacted))
	}
	_, err := rw.w.Write(b)
	return err
}

// Flush writes what is held back.
func (rw *Writer) Flush() error {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if len(rw.pend) == 0 {
		return nil
	}
	err := rw.emit(rw.red(), rw.pend, true)
	rw.pend = rw.pend[:0]
	return err
}
