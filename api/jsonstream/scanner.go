package jsonstream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Scanner splits a JSON body into raw values without decoding them, so that
// a listing of any size is handled one item at a time: only the item being
// decoded (and the read buffer) is in memory, never the whole document.
// Each value's syntax is checked in the same pass that finds its end
// (valueScan), and so is whether it prints as is (Plain).
type Scanner struct {
	r     io.Reader
	buf   []byte
	pos   int   // next unread byte in buf
	base  int64 // offset in the body of buf[0], for messages
	eof   bool
	rdErr error
	lim   Limits
	// Progress, when set, is told of progress: each item of the listing's
	// array, and a read inside an item that brought more than whitespace.
	// Nothing else (whitespace, members beside the array, keys) counts, so
	// a body that brings no item looks like silence.
	Progress *Progress
	inItem   bool
	vs       valueScan // the state of the value being read
}

const scanBuf = 256 << 10

// NewScanner scans what r reads, within lim.
func NewScanner(r io.Reader, lim Limits) *Scanner {
	return &Scanner{r: r, buf: make([]byte, 0, scanBuf), lim: lim}
}

// OfBytes scans body, already read whole, within lim: its values are
// slices of body.
func OfBytes(body []byte, lim Limits) *Scanner {
	return &Scanner{r: bytes.NewReader(nil), buf: body, eof: true, lim: lim}
}

// fill reads more input, keeping buf[keep:] (keep <= pos). It returns false
// at the end of the input or on a read error.
func (s *Scanner) fill(keep int) bool {
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
		s.Progress.Mark()
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

// Offset is where in the body the scan is.
func (s *Scanner) Offset() int64 { return s.base + int64(s.pos) }

// ErrTruncated is a body that ended before its value did.
var ErrTruncated = errors.New("truncated")

// SyntaxError is a body that is not JSON, or not of the shape walked.
type SyntaxError struct {
	Off  int64
	Want string
	Got  byte
	Item bool // inside an element of the listing's array
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d: expected %s, found %q", e.Off, e.Want, e.Got)
}

func (s *Scanner) endErr() error {
	if s.rdErr != nil {
		return s.rdErr
	}
	return ErrTruncated
}

// Peek skips whitespace and returns the next byte without consuming it.
func (s *Scanner) Peek() (byte, error) {
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
func (s *Scanner) expect(want string) (byte, error) {
	c, err := s.Peek()
	if err != nil {
		return 0, err
	}
	if bytes.IndexByte([]byte(want), c) < 0 {
		return 0, &SyntaxError{Off: s.Offset(), Want: "one of " + strconv.Quote(want), Got: c}
	}
	s.pos++
	return c, nil
}

// Value returns the raw bytes of the next complete value, checked to be
// valid JSON (valueScan: one pass for its end, its syntax and whether it
// prints as is, which Plain then reports). The slice is only valid until
// the next call.
func (s *Scanner) Value() ([]byte, error) {
	if _, err := s.Peek(); err != nil {
		return nil, err
	}
	v := &s.vs
	v.reset()
	start, i := s.pos, 0
	for {
		var err error
		i, err = v.run(s.buf[start:], i, s.lim, s.eof)
		if err != nil {
			if se, ok := err.(*SyntaxError); ok {
				se.Off += s.base + int64(start)
			}
			return nil, err
		}
		if v.want == wDone {
			s.pos = start + i
			return s.bounded(s.buf[start:s.pos])
		}
		if int64(len(s.buf)-start) > s.lim.Item {
			return nil, ItemLimit(s.lim.Item)
		}
		if s.eof {
			return nil, s.endErr()
		}
		s.fill(start) // at the end of the input s.eof is set and the next run finishes a number
		start = s.pos
	}
}

// Plain reports whether the value Value last returned prints as is.
func (s *Scanner) Plain() bool { return s.vs.plain }

// bounded returns a whole value, or the item limit's error when it is
// larger (the checks while reading see only values that span a refill).
func (s *Scanner) bounded(v []byte) ([]byte, error) {
	if int64(len(v)) > s.lim.Item {
		return nil, ItemLimit(s.lim.Item)
	}
	return v, nil
}

// key reads an object key.
func (s *Scanner) key() (string, error) {
	raw, err := s.Value()
	if err != nil {
		return "", err
	}
	if len(raw) < 2 || raw[0] != '"' {
		return "", &SyntaxError{Off: s.Offset(), Want: "an object key", Got: raw[0]}
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

// Object walks the top-level object of a body. For the member named
// arrayKey that is an array, each element is handed to item; every other
// member goes to other. Both get raw bytes valid only during the call.
func (s *Scanner) Object(arrayKey string, item func(raw []byte) error, other func(key string, raw []byte) error) error {
	if _, err := s.expect("{"); err != nil {
		return err
	}
	if c, err := s.Peek(); err != nil {
		return err
	} else if c == '}' {
		s.pos++
		return s.End()
	}
	for {
		k, err := s.key()
		if err != nil {
			return err
		}
		if _, err := s.expect(":"); err != nil {
			return err
		}
		c, err := s.Peek()
		if err != nil {
			return err
		}
		if k == arrayKey && c == '[' {
			if err := s.Array(item); err != nil {
				return err
			}
		} else {
			raw, err := s.Value()
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
			return s.End()
		}
	}
}

// Array walks an array, handing each element to item (raw bytes valid
// only during the call); each element counts as progress.
func (s *Scanner) Array(item func(raw []byte) error) error {
	if _, err := s.expect("["); err != nil {
		return err
	}
	if c, err := s.Peek(); err != nil {
		return err
	} else if c == ']' {
		s.pos++
		return nil
	}
	for {
		s.inItem = true
		raw, err := s.Value()
		s.inItem = false
		if err != nil {
			if se, ok := err.(*SyntaxError); ok {
				se.Item = true
			}
			return err
		}
		s.Progress.Mark()
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

// End checks that only whitespace follows the document.
func (s *Scanner) End() error {
	c, err := s.Peek()
	if errors.Is(err, ErrTruncated) {
		return nil
	}
	if err != nil {
		return err
	}
	return &SyntaxError{Off: s.Offset(), Want: "the end of the body", Got: c}
}

// Item is one element of a walked array as the body holds it, its syntax
// checked.
type Item struct {
	Bytes []byte // valid only during the call that hands it
	// Plain says every byte prints as is: no control character, no C1
	// control, valid UTF-8 (found in the same pass that delimits the item).
	Plain bool
}

// ItemError is an error that Walk's item or other function returned, with
// where it happened. It does not unwrap: a limit or a truncation inside a
// caller's function is the caller's, not the body's.
type ItemError struct {
	N   int    // the item's number, from 1; 0 for a member beside the array
	Key string // the member's key, when N is 0
	Off int64  // where in the body the value starts
	Err error
}

func (e *ItemError) Error() string { return e.Err.Error() }

// Walk walks a listing's body: each element of the array member arrayKey
// of its top-level object goes to item, every other member to other (both
// get bytes valid only during the call). An empty arrayKey walks a body
// that is a bare array (other is not called); with nullOK a bare null
// stands for no items, as a decode into a slice reads it. n is the items
// handed out. An error of item or other comes back as an *ItemError; the
// body's own (*SyntaxError, *LimitError, ErrTruncated, a read error) as it
// is.
func (s *Scanner) Walk(arrayKey string, nullOK bool, item func(Item) error, other func(key string, raw []byte) error) (n int, err error) {
	each := func(raw []byte) error {
		n++
		if err := item(Item{raw, s.Plain()}); err != nil {
			return &ItemError{N: n, Off: s.Offset() - int64(len(raw)), Err: err}
		}
		return nil
	}
	if arrayKey == "" {
		if c, perr := s.Peek(); perr == nil && c == 'n' && nullOK {
			_, err = s.Value()
		} else if err = s.Array(each); err == nil {
			err = s.End()
		}
		return n, err
	}
	err = s.Object(arrayKey, each, func(key string, raw []byte) error {
		if err := other(key, raw); err != nil {
			return &ItemError{Key: key, Off: s.Offset() - int64(len(raw)), Err: err}
		}
		return nil
	})
	return n, err
}
