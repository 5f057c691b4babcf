package printer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// errNotJSON: what a command wrote is not JSON (a command whose --json
// prints text, such as `config KEY`).
var errNotJSON = errors.New("not JSON")

// splitter cuts the JSON a command writes, in whatever pieces it arrives,
// into documents and, inside a top-level array, into its elements, without
// holding more than the current one: the items of a listing reach the
// shaper one by one as the command writes them.
type splitter struct {
	emit  func(raw []byte, inArray bool) error
	array func(open bool) error

	inArray bool // inside a top-level array, between or in elements
	inValue bool
	scalar  bool // a number or literal: ends at the first delimiter
	str     bool // inside a string
	esc     bool // after a backslash in a string
	depth   int  // brackets open in the current value
	buf     []byte
}

func (s *splitter) feed(p []byte) error {
	for _, c := range p {
		if err := s.byte(c); err != nil {
			return err
		}
	}
	return nil
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *splitter) byte(c byte) error {
	if !s.inValue {
		switch {
		case isJSONSpace(c):
			return nil
		case s.inArray && c == ',':
			return nil
		case s.inArray && c == ']':
			s.inArray = false
			return s.array(false)
		case !s.inArray && c == '[':
			s.inArray = true
			return s.array(true)
		}
		s.inValue, s.scalar, s.depth, s.buf = true, c != '{' && c != '[' && c != '"', 0, s.buf[:0]
	}
	if s.scalar {
		if isJSONSpace(c) || c == ',' || c == ']' || c == '}' || c == '[' || c == '{' || c == '"' {
			if err := s.done(); err != nil {
				return err
			}
			return s.byte(c) // the delimiter belongs to what follows
		}
		return s.add(c)
	}
	if err := s.add(c); err != nil {
		return err
	}
	switch {
	case s.str && s.esc:
		s.esc = false
	case s.str && c == '\\':
		s.esc = true
	case s.str && c == '"':
		s.str = false
		if s.depth == 0 {
			return s.done()
		}
	case s.str:
	case c == '"':
		s.str = true
	case c == '{' || c == '[':
		s.depth++
	case c == '}' || c == ']':
		s.depth--
		if s.depth <= 0 {
			return s.done()
		}
	}
	return nil
}

func (s *splitter) add(c byte) error {
	if len(s.buf) >= maxShapeItem {
		return &shapeError{msg: fmt.Sprintf("an item is larger than %d MiB, more than --jq and --template hold at once", maxShapeItem>>20)}
	}
	s.buf = append(s.buf, c)
	return nil
}

func (s *splitter) done() error {
	s.inValue = false
	err := s.emit(s.buf, s.inArray)
	if cap(s.buf) > 1<<20 {
		s.buf = nil // one large item does not keep its buffer for the rest
	}
	return err
}

// end is the end of the output: a number or literal still open is whole.
func (s *splitter) end() error {
	if s.inValue && s.scalar {
		return s.done()
	}
	if s.inValue {
		return fmt.Errorf("%w: the output ended inside a value", errNotJSON)
	}
	return nil
}

// decodeShapeValue decodes one document or item for jq and templates;
// numbers stay exact (json.Number: IDs of 19 digits are not rounded).
func decodeShapeValue(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %v", errNotJSON, err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errNotJSON
	}
	return v, nil
}
