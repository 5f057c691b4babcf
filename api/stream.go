package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// scanner splits a JSON body into raw values without decoding them, so that
// a listing of any size is handled one item at a time: only the item being
// decoded (and the read buffer) is in memory, never the whole document. It
// checks structure (brackets, strings, separators); each item's own syntax is
// checked by the decoder it is handed to.
type scanner struct {
	r     io.Reader
	buf   []byte
	pos   int   // next unread byte in buf
	base  int64 // offset in the body of buf[0], for messages
	eof   bool
	rdErr error
	lim   limits
	// gate, when set, is told of progress: each item of the listing's
	// array, and a read inside an item that brought more than whitespace.
	// Nothing else (whitespace, members beside the array, keys) re-arms
	// the stall timer, so a body that brings no item ends like a stall.
	gate   *progressGate
	inItem bool
	vs     valueScan // the state of the value being read
}

const scanBuf = 256 << 10

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, 0, scanBuf), lim: defaultLimits}
}

// fill reads more input, keeping buf[keep:] (keep <= pos). It returns false
// at the end of the input or on a read error.
func (s *scanner) fill(keep int) bool {
	if s.eof {
		return false
	}
	if keep > 0 {
		n := copy(s.buf, s.buf[keep:])
		s.buf = s.buf[:n]
		s.pos -= keep
		s.base += int64(keep)
	}
	if len(s.buf) == cap(s.buf) {
		s.buf = append(s.buf, make([]byte, cap(s.buf))...)[:len(s.buf)]
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	if s.inItem && n > 0 && !allSpace(s.buf[len(s.buf):len(s.buf)+n]) {
		s.gate.mark()
	}
	s.buf = s.buf[:len(s.buf)+n]
	if err != nil {
		s.eof = true
		if err != io.EOF {
			s.rdErr = err
		}
	}
	return n > 0 || !s.eof
}

// allSpace reports whether b is JSON whitespace only; it stops at the
// first other byte, which in a real item is the first.
func allSpace(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

func (s *scanner) offset() int64 { return s.base + int64(s.pos) }

// errTruncated and syntaxError are turned into KindMalformed messages.
var errTruncated = errors.New("truncated")

type syntaxError struct {
	off  int64
	want string
	got  byte
	item bool // inside an element of the listing's array
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d: expected %s, found %q", e.off, e.want, e.got)
}

func (s *scanner) endErr() error {
	if s.rdErr != nil {
		return s.rdErr
	}
	return errTruncated
}

// peek skips whitespace and returns the next byte without consuming it.
func (s *scanner) peek() (byte, error) {
	for {
		for s.pos < len(s.buf) {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\n', '\r':
				s.pos++
			default:
				return c, nil
			}
		}
		if !s.fill(s.pos) {
			return 0, s.endErr()
		}
	}
}

// expect consumes the next non-space byte, which must be one of want.
func (s *scanner) expect(want string) (byte, error) {
	c, err := s.peek()
	if err != nil {
		return 0, err
	}
	if bytes.IndexByte([]byte(want), c) < 0 {
		return 0, &syntaxError{off: s.offset(), want: "one of " + strconv.Quote(want), got: c}
	}
	s.pos++
	return c, nil
}

// value returns the raw bytes of the next complete value, checked to be
// valid JSON (valueScan: one pass for its end, its syntax and whether it
// prints as is, which plain then reports). The slice is only valid until
// the next call.
func (s *scanner) value() ([]byte, error) {
	if _, err := s.peek(); err != nil {
		return nil, err
	}
	v := &s.vs
	v.reset()
	start, i := s.pos, 0
	for {
		var err error
		i, err = v.run(s.buf[start:], i, s.lim, s.eof)
		if err != nil {
			if se, ok := err.(*syntaxError); ok {
				se.off += s.base + int64(start)
			}
			return nil, err
		}
		if v.want == wDone {
			s.pos = start + i
			return s.bounded(s.buf[start:s.pos])
		}
		if int64(len(s.buf)-start) > s.lim.item {
			return nil, itemLimit(s.lim.item)
		}
		if s.eof {
			return nil, s.endErr()
		}
		s.fill(start) // at the end of the input s.eof is set and the next run finishes a number
		start = s.pos
	}
}

// plain reports whether the value value last returned prints as is.
func (s *scanner) plain() bool { return s.vs.plain }

// bounded returns a whole value, or the item limit's error when it is
// larger (the checks while reading see only values that span a refill).
func (s *scanner) bounded(v []byte) ([]byte, error) {
	if int64(len(v)) > s.lim.item {
		return nil, itemLimit(s.lim.item)
	}
	return v, nil
}

// key reads an object key.
func (s *scanner) key() (string, error) {
	raw, err := s.value()
	if err != nil {
		return "", err
	}
	if len(raw) < 2 || raw[0] != '"' {
		return "", &syntaxError{off: s.offset(), want: "an object key", got: raw[0]}
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), nil
	}
	k, err := strconv.Unquote(string(raw))
	if err != nil {
		return string(raw), nil
	}
	return k, nil
}

// object walks the top-level object of a body. For the member named
// arrayKey that is an array, each element is handed to item; every other
// member goes to other. Both get raw bytes valid only during the call.
func (s *scanner) object(arrayKey string, item func(raw []byte) error, other func(key string, raw []byte) error) error {
	if _, err := s.expect("{"); err != nil {
		return err
	}
	if c, err := s.peek(); err != nil {
		return err
	} else if c == '}' {
		s.pos++
		return s.end()
	}
	for {
		k, err := s.key()
		if err != nil {
			return err
		}
		if _, err := s.expect(":"); err != nil {
			return err
		}
		c, err := s.peek()
		if err != nil {
			return err
		}
		if k == arrayKey && c == '[' {
			if err := s.array(item); err != nil {
				return err
			}
		} else {
			raw, err := s.value()
			if err != nil {
				return err
			}
			if err := other(k, raw); err != nil {
				return err
			}
		}
		if c, err := s.expect(",}"); err != nil {
			return err
		} else if c == '}' {
			return s.end()
		}
	}
}

func (s *scanner) array(item func(raw []byte) error) error {
	if _, err := s.expect("["); err != nil {
		return err
	}
	if c, err := s.peek(); err != nil {
		return err
	} else if c == ']' {
		s.pos++
		return nil
	}
	for {
		s.inItem = true
		raw, err := s.value()
		s.inItem = false
		if err != nil {
			if se, ok := err.(*syntaxError); ok {
				se.item = true
			}
			return err
		}
		s.gate.mark()
		if err := item(raw); err != nil {
			return err
		}
		if c, err := s.expect(",]"); err != nil {
			return err
		} else if c == ']' {
			return nil
		}
	}
}

// end checks that only whitespace follows the document.
func (s *scanner) end() error {
	c, err := s.peek()
	if errors.Is(err, errTruncated) {
		return nil
	}
	if err != nil {
		return err
	}
	return &syntaxError{off: s.offset(), want: "the end of the body", got: c}
}
