package jsonstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

// scanDoc walks doc as a listing, read whole and one byte at a time (every
// state of the value scanner then meets the end of its buffer); the two
// must agree.
func scanDoc(t *testing.T, doc []byte) (plain []bool, err error) {
	t.Helper()
	var errs [2]error
	for k, r := range []func() *Scanner{
		func() *Scanner { return NewScanner(bytes.NewReader(doc), Default) },
		func() *Scanner { return NewScanner(iotest.OneByteReader(bytes.NewReader(doc)), Default) },
	} {
		sc := r()
		var got []bool
		errs[k] = sc.Object("items", func([]byte) error {
			got = append(got, sc.Plain())
			return nil
		}, func(string, []byte) error { return nil })
		if errs[k] == nil {
			errs[k] = sc.End()
		}
		if k == 0 {
			plain = got
		} else if (errs[0] == nil) != (errs[1] == nil) || fmt.Sprint(got) != fmt.Sprint(plain) {
			t.Fatalf("%q: whole %v (%d items), byte by byte %v (%d items)", doc, errs[0], len(plain), errs[1], len(got))
		}
	}
	return plain, errs[0]
}

// TestValueScanAcceptsWhatEncodingJSONAccepts: now that --json writes an
// item without decoding it, the scanner alone stands between a broken item
// and stdout. For thousands of items damaged one byte at a time, it accepts
// exactly the documents encoding/json calls valid (ASCII damage only: raw
// control characters and bad UTF-8 in strings are let by, as the decoder
// lets them by, and escaped on output).
func TestValueScanAcceptsWhatEncodingJSONAccepts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = `{}[]:,"\ 0123456789-+.eEtrufalsn/bu` + "x"
	base := []string{
		`{"id":"a\"b\\c\u00e9\/","n":-12.5e+3,"z":0,"f":1E-2,"t":true,"u":false,"v":null,"a":[1,[],{},"x"],"o":{"k":{"l":[0.5]}}}`,
		`{"vault_project":{"name":"Project — Share","files_count":42,"is_knowledge_base_project":false},"deleted_at":"2025-01-02T03:04:05Z"}`,
	}
	for range 4000 {
		item := []byte(base[rng.IntN(len(base))])
		for range 1 + rng.IntN(2) {
			at := rng.IntN(len(item))
			c := alphabet[rng.IntN(len(alphabet))]
			switch rng.IntN(3) {
			case 0:
				item[at] = c
			case 1:
				item = append(item[:at:at], append([]byte{c}, item[at:]...)...)
			default:
				item = append(item[:at:at], item[at+1:]...)
			}
		}
		doc := []byte(`{"items":[` + string(item) + `],"total":1}`)
		_, err := scanDoc(t, doc)
		if valid := json.Valid(doc); valid != (err == nil) {
			t.Fatalf("%s: encoding/json valid=%v, scanner error %v", doc, valid, err)
		}
	}
}

func TestValueScanNumbersAndLiterals(t *testing.T) {
	for _, v := range []string{"0", "-0", "1", "-12", "1.5", "0.25", "1e5", "1E+5", "2e-3", "-0.0e0", "true", "false", "null", `""`, `"\u0041"`,
		"01", "-", "1.", ".5", "1e", "1e+", "+1", "--1", "0x1", "tru", "nul", "falsey", "NaN", `"\x"`, `"\u12"`, `"\u12g4"`, "1.e5"} {
		doc := []byte(`{"items":[` + v + `],"n":` + v + `}`)
		_, err := scanDoc(t, doc)
		if valid := json.Valid(doc); valid != (err == nil) {
			t.Errorf("%s: encoding/json valid=%v, scanner error %v", v, valid, err)
		}
	}
}

// TestValueScanPlain: an item prints as sent only when no byte of it needs
// escaping for a terminal; escapes written as text (\u001b) are plain.
func TestValueScanPlain(t *testing.T) {
	for item, want := range map[string]bool{
		`{"a":"plain é — 日本 \u001b \u0085 \\ \""}`: true,
		`{"a": 1, "b" : [ 2 ]}`:                    true,
		"{\"a\":\"\x1b[31m\"}":                     false,
		"{\"a\":\"\u0085\"}":                       false, // C1 as UTF-8
		"{\"a\":\"\x9b\"}":                         false, // not UTF-8 (CSI on 8-bit terminals)
		"{\"a\":\"\x7f\"}":                         false,
		"{\"a\":\n1}":                              false, // a line break: the one-line output takes it out
		"{\"a\":\"\xed\xa0\x80\"}":                 false, // a surrogate in UTF-8
		"{\"a\":\"\u00a0\"}":                       true,
	} {
		plain, err := scanDoc(t, []byte(`{"items":[{"x":1},`+item+`]}`))
		if err != nil || len(plain) != 2 || !plain[0] || plain[1] != want {
			t.Errorf("%q: plain %v, err %v; want %v", item, plain, err, want)
		}
	}
}

// TestPlainRunStopsWhereTheTableSays: the eight-bytes-at-a-time skip stops
// at the first byte a string's contents need a second look at, as the
// byte-by-byte table does, whatever the bytes and wherever they start.
func TestPlainRunStopsWhereTheTableSays(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	b := make([]byte, 64)
	for range 20000 {
		for i := range b {
			b[i] = byte(0x20 + rng.IntN(0x5f))
		}
		for range rng.IntN(3) {
			b[rng.IntN(len(b))] = byte(rng.IntN(256))
		}
		from := rng.IntN(len(b))
		want := from
		for want < len(b) && strPlain[b[want]] {
			want++
		}
		if got := plainRun(b, from); got != want {
			t.Fatalf("%q from %d: %d, want %d", b, from, got, want)
		}
	}
}
