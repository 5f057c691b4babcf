package api

import (
	"encoding/binary"
	"unicode/utf8"
)

// valueScan reads one JSON value in a single pass over its bytes and does
// at once the three things a streamed listing needs of them: where the value
// ends, whether it is valid JSON (so an item can be written as sent without
// decoding it first), and whether every byte of it prints as is (plain: no
// control character, no C1 control, valid UTF-8; an item that is plain
// needs no escaping on its way to a terminal). It keeps its state between
// calls, so a value is read across refills of the scanner's buffer without
// going back over what was read: a hostile 4 MB item costs one pass too.
type valueScan struct {
	stack []byte // '{' or '[' for each container open around the byte read
	want  uint8  // what the grammar expects next (the w* states)
	lit   string // the rest of a literal being read (true, false, null)
	num   uint8  // where in a number (the n* states)
	esc   int8   // in a string: 0, -1 just after a backslash, 1..4 hex digits to go
	key   bool   // the string being read is an object key
	strAt int    // index in the value where the open string's contents begin
	plain bool
}

const (
	wValue      = iota // a value
	wValueOrEnd        // a value or ']' (just after '[')
	wKeyOrEnd          // a key or '}' (just after '{')
	wKey               // a key (after ',' in an object)
	wColon             // ':' after a key
	wNext              // ',' or the closing bracket, after a member or element
	wString            // inside a string
	wLit               // inside true, false or null
	wNum               // inside a number
	wDone              // the value is complete
)

// number states: after '-', after a leading 0, in the integer digits,
// after '.', in the fraction, after 'e', after the exponent's sign, in the
// exponent. The ones marked final may end the number.
const (
	nMinus = iota
	nZero  // final
	nInt   // final
	nDot
	nFrac // final
	nE
	nESign
	nExp // final
)

// strPlain marks the bytes a string's contents run over without a second
// look: printable ASCII but the quote and the backslash.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainRun returns the index of the first byte from i on that is not
// strPlain, or len(b): eight bytes at a time while none of them is (a
// string's contents are most of a listing's bytes).
func plainRun(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// a byte below 0x20, a quote, a backslash, DEL, or one with the
		// high bit set (the zero-byte test on x, on x with each special
		// byte xored away, and the high bits themselves)
		q, bs, del := x^(ones*'"'), x^(ones*'\\'), x^(ones*0x7f)
		if ((x-ones*0x20)&^x|(q-ones)&^q|(bs-ones)&^bs|(del-ones)&^del|x)&highs != 0 {
			break
		}
	}
	for i < len(b) && strPlain[b[i]] {
		i++
	}
	return i
}

func (v *valueScan) reset() {
	v.stack = v.stack[:0]
	v.want, v.esc, v.lit, v.plain = wValue, 0, "", true
}

// fail is the syntax error at index i of the value (made absolute by the
// scanner).
func (v *valueScan) fail(i int, want string, got byte) *syntaxError {
	return &syntaxError{off: int64(i), want: want, got: got}
}

// ended moves past a complete value: to the container's next separator, or
// to done at the top.
func (v *valueScan) ended() {
	if len(v.stack) == 0 {
		v.want = wDone
		return
	}
	v.want = wNext
}

// run reads b (the value from its first byte) from index i on. It returns
// the index to resume from: after the value once v.want is wDone, or where
// more input is needed (the end of b, or the start of a character cut by
// it). eof says no more input will come, which ends a number at the top.
func (v *valueScan) run(b []byte, i int, lim limits, eof bool) (int, error) {
	for i < len(b) && v.want != wDone {
		c := b[i]
		switch v.want {
		case wString:
			if v.esc != 0 {
				if v.esc < 0 {
					switch c {
					case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
						v.esc = 0
					case 'u':
						v.esc = 4
					default:
						return i, v.fail(i, "an escape character", c)
					}
				} else {
					if !isHex(c) {
						return i, v.fail(i, "a hexadecimal digit", c)
					}
					v.esc--
				}
				i++
				continue
			}
			i = plainRun(b, i)
			if i == len(b) {
				break
			}
			switch c = b[i]; {
			case c == '"':
				if int64(i-v.strAt) > lim.str {
					return i, strLimit(lim.str)
				}
				i++
				if v.key {
					v.want = wColon
				} else {
					v.ended()
				}
			case c == '\\':
				v.esc = -1
				i++
			case c < utf8.RuneSelf: // a control character or DEL, let by as goccy does; escaped on output
				v.plain = false
				i++
			default:
				if !eof && !utf8.FullRune(b[i:]) {
					return v.more(b, i, lim)
				}
				r, size := utf8.DecodeRune(b[i:])
				if r <= 0x9f { // invalid (RuneError is above) or C1
					v.plain = false
				}
				if r == utf8.RuneError && size == 1 {
					v.plain = false
				}
				i += size
			}
		case wLit:
			if c != v.lit[0] {
				return i, v.fail(i, "the rest of a true, false or null", c)
			}
			v.lit = v.lit[1:]
			i++
			if v.lit == "" {
				v.ended()
			}
		case wNum:
			if !v.numByte(c) {
				if v.num != nZero && v.num != nInt && v.num != nFrac && v.num != nExp {
					return i, v.fail(i, "a digit", c)
				}
				v.ended() // c is not the number's: read again in the new state
				continue
			}
			i++
		default:
			switch c {
			case ' ':
				i++
				continue
			case '\t', '\n', '\r':
				v.plain = false // a line break inside an item: the output takes it out
				i++
				continue
			}
			if err := v.token(i, c); err != nil {
				return i, err
			}
			i++
		}
	}
	if eof && v.want == wNum && (v.num == nZero || v.num == nInt || v.num == nFrac || v.num == nExp) {
		v.ended()
	}
	return v.more(b, i, lim)
}

// more is run's return when it stops: the string limit applies to a string
// still open.
func (v *valueScan) more(b []byte, i int, lim limits) (int, error) {
	if v.want == wString && int64(len(b)-v.strAt) > lim.str {
		return i, strLimit(lim.str)
	}
	return i, nil
}

// token handles a byte that is not whitespace outside strings, literals and
// numbers.
func (v *valueScan) token(i int, c byte) error {
	switch v.want {
	case wColon:
		if c != ':' {
			return v.fail(i, `":"`, c)
		}
		v.want = wValue
		return nil
	case wNext:
		top := v.stack[len(v.stack)-1]
		switch {
		case c == ',' && top == '{':
			v.want = wKey
		case c == ',':
			v.want = wValue
		case c == '}' && top == '{', c == ']' && top == '[':
			v.stack = v.stack[:len(v.stack)-1]
			v.ended()
		default:
			if top == '{' {
				return v.fail(i, `"," or "}"`, c)
			}
			return v.fail(i, `"," or "]"`, c)
		}
		return nil
	case wKeyOrEnd, wKey:
		switch {
		case c == '"':
			v.want, v.key, v.strAt = wString, true, i+1
		case c == '}' && v.want == wKeyOrEnd:
			v.stack = v.stack[:len(v.stack)-1]
			v.ended()
		default:
			return v.fail(i, "an object key", c)
		}
		return nil
	}
	switch c { // wValue, wValueOrEnd
	case '{', '[':
		v.stack = append(v.stack, c)
		v.want = wKeyOrEnd
		if c == '[' {
			v.want = wValueOrEnd
		}
	case '"':
		v.want, v.key, v.strAt = wString, false, i+1
	case 't':
		v.want, v.lit = wLit, "rue"
	case 'f':
		v.want, v.lit = wLit, "alse"
	case 'n':
		v.want, v.lit = wLit, "ull"
	case '-':
		v.want, v.num = wNum, nMinus
	case '0':
		v.want, v.num = wNum, nZero
	case ']':
		if v.want != wValueOrEnd {
			return v.fail(i, "a value", c)
		}
		v.stack = v.stack[:len(v.stack)-1]
		v.ended()
	default:
		if c < '1' || c > '9' {
			return v.fail(i, "a value", c)
		}
		v.want, v.num = wNum, nInt
	}
	return nil
}

// numByte advances the number's state by c; false when c cannot continue
// it.
func (v *valueScan) numByte(c byte) bool {
	digit := c >= '0' && c <= '9'
	switch v.num {
	case nMinus:
		switch {
		case c == '0':
			v.num = nZero
		case digit:
			v.num = nInt
		default:
			return false
		}
	case nZero, nInt:
		switch {
		case digit && v.num == nInt:
		case c == '.':
			v.num = nDot
		case c == 'e' || c == 'E':
			v.num = nE
		default:
			return false
		}
	case nDot, nFrac:
		switch {
		case digit:
			v.num = nFrac
		case (c == 'e' || c == 'E') && v.num == nFrac:
			v.num = nE
		default:
			return false
		}
	case nE:
		switch {
		case c == '+' || c == '-':
			v.num = nESign
		case digit:
			v.num = nExp
		default:
			return false
		}
	case nESign, nExp:
		if !digit {
			return false
		}
		v.num = nExp
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}
