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
		return 0, &syntaxError{s.offset(), "one of " + strconv.Quote(want), c}
	}
	s.pos++
	return c, nil
}

// value returns the raw bytes of the next complete value. The slice is only
// valid until the next call.
func (s *scanner) value() ([]byte, error) {
	c, err := s.peek()
	if err != nil {
		return nil, err
	}
	start := s.pos
	i := start
	depth := 0
	switch c {
	case '{', '[', '"':
	case '}', ']', ',', ':':
		return nil, &syntaxError{s.offset(), "a value", c}
	default: // number, true, false, null: up to the next delimiter
		for {
			for ; i < len(s.buf); i++ {
				switch s.buf[i] {
				case ',', '}', ']', ' ', '\t', '\n', '\r':
					s.pos = i
					return s.bounded(s.buf[start:i])
				}
			}
			n := i - start
			if int64(n) > s.lim.item {
				return nil, itemLimit(s.lim.item)
			}
			if !s.fill(start) {
				if s.rdErr != nil {
					return nil, s.rdErr
				}
				s.pos = len(s.buf)
				return s.bounded(s.buf[s.pos-n : s.pos])
			}
			start, i = s.pos, s.pos+n
		}
	}
	for {
		for i < len(s.buf) {
			switch s.buf[i] {
			case '"':
				end := stringEnd(s.buf, i+1)
				if end < 0 {
					if int64(len(s.buf)-i-1) > s.lim.str {
						return nil, strLimit(s.lim.str)
					}
					goto more
				}
				if int64(end-i-1) > s.lim.str {
					return nil, strLimit(s.lim.str)
				}
				i = end + 1
				if depth == 0 {
					s.pos = i
					return s.bounded(s.buf[start:i])
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos = i + 1
					return s.bounded(s.buf[start : i+1])
				}
			}
			i++
		}
	more:
		n := i - start
		if int64(len(s.buf)-start) > s.lim.item {
			return nil, itemLimit(s.lim.item)
		}
		if !s.fill(start) {
			return nil, s.endErr()
		}
		start, i = s.pos, s.pos+n
	}
}

// bounded returns a whole value, or the item limit's error when it is
// larger (the checks while reading see only values that span a refill).
func (s *scanner) bounded(v []byte) ([]byte, error) {
	if int64(len(v)) > s.lim.item {
		return nil, itemLimit(s.lim.item)
	}
	return v, nil
}

// stringEnd returns the index of the quote closing a string whose contents
// start at from, or -1 when it is not in b yet.
func stringEnd(b []byte, from int) int {
	for {
		j := bytes.IndexByte(b[from:], '"')
		if j < 0 {
			return -1
		}
		q := from + j
		bs := 0
		for k := q - 1; k >= from && b[k] == '\\'; k-- {
			bs++
		}
		if bs%2 == 0 {
			return q
		}
		from = q + 1
	}
}

// key reads an object key.
func (s *scanner) key() (string, error) {
	raw, err := s.value()
	if err != nil {
		return "", err
	}
	if len(raw) < 2 || raw[0] != '"' {
		return "", &syntaxError{s.offset(), "an object key", raw[0]}
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
	return &syntaxError{s.offset(), "the end of the body", c}
}
