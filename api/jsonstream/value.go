package jsonstream

import (
	"encoding/binary"
	"math/bits"
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
// string's contents are most of a listing's bytes), and the word that holds
// one gives its place by its lowest flagged byte (the zero-byte test can
// flag a byte above a true one through a borrow, never one below it).
func plainRun(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		if m := special(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(b) && strPlain[b[i]] {
		i++
	}
	return i
}

// special flags (in its high bit) each byte of x that is not strPlain: a
// byte below 0x20, a quote, a backslash, DEL, or one with the high bit set
// (the zero-byte test on x, on x with each special byte xored away, and
// the high bits themselves).
func special(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, bs, del := x^(ones*'"'), x^(ones*'\\'), x^(ones*0x7f)
	return ((x-ones*0x20)&^x | (q-ones)&^q | (bs-ones)&^bs | (del-ones)&^del | x) & highs
}

func (v *valueScan) reset() {
	v.stack = v.stack[:0]
	v.want, v.esc, v.lit, v.plain = wValue, 0, "", true
}

// fail is the syntax error at index i of the value (made absolute by the
// scanner).
func (v *valueScan) fail(i int, want string, got byte) *SyntaxError {
	return &SyntaxError{Off: int64(i), Want: want, Got: got}
}

// run reads b (the value from its first byte) from index i on. It returns
// the index to resume from: after the value once v.want is wDone, or where
// more input is needed (the end of b, or the start of a character cut by
// it). eof says no more input will come, which ends a number at the top.
//
// The state the loop changes at every token (want, plain) lives in locals,
// stored back once when it stops, and the common steps (a string's end, the
// colon after a key, the comma and the quote that follow) are taken where
// they are met: most of a listing is short strings between them.
func (v *valueScan) run(b []byte, i int, lim Limits, eof bool) (int, error) {
	want, plain := v.want, v.plain
	var err error
loop:
	for i < len(b) {
		c := b[i]
		switch want {
		case wString:
			if v.esc != 0 {
				if v.esc < 0 {
					switch c {
					case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
						v.esc = 0
					case 'u':
						v.esc = 4
					default:
						err = v.fail(i, "an escape character", c)
						break loop
					}
				} else {
					if !isHex(c) {
						err = v.fail(i, "a hexadecimal digit", c)
						break loop
					}
					v.esc--
				}
				i++
				continue
			}
			i = plainRun(b, i)
			if i == len(b) {
				break loop
			}
			switch c = b[i]; {
			case c == '"':
				if int64(i-v.strAt) > lim.Str {
					err = StrLimit(lim.Str)
					break loop
				}
				i++
				switch {
				case v.key && i < len(b) && b[i] == ':':
					want = wValue
					i++
				case v.key:
					want = wColon
				default:
					if want = v.after(); want == wDone {
						break loop
					}
				}
			case c == '\\':
				v.esc = -1
				i++
			case c < utf8.RuneSelf: // a control character or DEL, let by as goccy does; escaped on output
				plain = false
				i++
			default:
				if !eof && !utf8.FullRune(b[i:]) {
					break loop
				}
				r, size := utf8.DecodeRune(b[i:])
				if r <= 0x9f { // invalid (RuneError is above) or C1
					plain = false
				}
				if r == utf8.RuneError && size == 1 {
					plain = false
				}
				i += size
			}
		case wLit:
			if c != v.lit[0] {
				err = v.fail(i, "the rest of a true, false or null", c)
				break loop
			}
			v.lit = v.lit[1:]
			i++
			if v.lit == "" {
				if want = v.after(); want == wDone {
					break loop
				}
			}
		case wNum:
			if !v.numByte(c) {
				if !v.numFinal() {
					err = v.fail(i, "a digit", c)
					break loop
				}
				if want = v.after(); want == wDone { // c is not the number's: read again in the new state
					break loop
				}
				continue
			}
			i++
		default:
			switch {
			case c == ' ':
				i++
				continue
			case c == '\t' || c == '\n' || c == '\r':
				plain = false // a line break inside an item: the output takes it out
				i++
				continue
			case c == '"' && want != wColon && want != wNext: // a string where a key or a value may start
				want, v.key, v.strAt = wString, want == wKey || want == wKeyOrEnd, i+1
				i++
				continue
			case c == ',' && want == wNext:
				want = wValue
				if v.stack[len(v.stack)-1] == '{' {
					want = wKey
				}
				i++
				continue
			}
			if want, err = v.token(want, i, c); err != nil {
				break loop
			}
			i++
			if want == wDone {
				break loop
			}
		}
	}
	v.want, v.plain = want, plain
	if err != nil {
		return i, err
	}
	if eof && want == wNum && v.numFinal() {
		v.want = v.after()
	}
	return v.more(b, i, lim)
}

// after is the state past a complete value: its container's separator, or
// done at the top.
func (v *valueScan) after() uint8 {
	if len(v.stack) == 0 {
		return wDone
	}
	return wNext
}

// numFinal reports whether the number read so far may end here.
func (v *valueScan) numFinal() bool {
	return v.num == nZero || v.num == nInt || v.num == nFrac || v.num == nExp
}

// more is run's return when it stops: the string limit applies to a string
// still open.
func (v *valueScan) more(b []byte, i int, lim Limits) (int, error) {
	if v.want == wString && int64(len(b)-v.strAt) > lim.Str {
		return i, StrLimit(lim.Str)
	}
	return i, nil
}

// token handles a byte that is not whitespace outside strings, literals and
// numbers (the ones run does not take itself), in state want; it returns
// the next state.
func (v *valueScan) token(want uint8, i int, c byte) (uint8, error) {
	switch want {
	case wColon:
		if c != ':' {
			return want, v.fail(i, `":"`, c)
		}
		return wValue, nil
	case wNext:
		top := v.stack[len(v.stack)-1]
		switch {
		case c == ',' && top == '{':
			return wKey, nil
		case c == ',':
			return wValue, nil
		case c == '}' && top == '{', c == ']' && top == '[':
			v.stack = v.stack[:len(v.stack)-1]
			return v.after(), nil
		case top == '{':
			return want, v.fail(i, `"," or "}"`, c)
		}
		return want, v.fail(i, `"," or "]"`, c)
	case wKeyOrEnd, wKey:
		switch {
		case c == '"':
			v.key, v.strAt = true, i+1
			return wString, nil
		case c == '}' && want == wKeyOrEnd:
			v.stack = v.stack[:len(v.stack)-1]
			return v.after(), nil
		}
		return want, v.fail(i, "an object key", c)
	}
	switch c { // wValue, wValueOrEnd
	case '{':
		v.stack = append(v.stack, c)
		return wKeyOrEnd, nil
	case '[':
		v.stack = append(v.stack, c)
		return wValueOrEnd, nil
	case '"':
		v.key, v.strAt = false, i+1
		return wString, nil
	case 't':
		v.lit = "rue"
		return wLit, nil
	case 'f':
		v.lit = "alse"
		return wLit, nil
	case 'n':
		v.lit = "ull"
		return wLit, nil
	case '-':
		v.num = nMinus
		return wNum, nil
	case '0':
		v.num = nZero
		return wNum, nil
	case ']':
		if want != wValueOrEnd {
			return want, v.fail(i, "a value", c)
		}
		v.stack = v.stack[:len(v.stack)-1]
		return v.after(), nil
	}
	if c < '1' || c > '9' {
		return want, v.fail(i, "a value", c)
	}
	v.num = nInt
	return wNum, nil
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
