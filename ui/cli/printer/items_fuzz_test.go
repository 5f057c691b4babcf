package printer

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	gojson "github.com/goccy/go-json"
)

// FuzzSafeRawIsDecodeAndReencode is the proof that writing an item's own
// bytes, escaped in one pass where it does not print as is (safeRaw), is
// the straightforward way (decode the item with the tolerant decoder the
// client uses, encode it again) without its cost: for any item that
// decoder accepts, the output is strict JSON on one line with no byte a
// terminal acts on, and it decodes to the same value as the re-encoded one.
//
// go test ./ui/cli/printer -run '^$' -fuzz FuzzSafeRawIsDecodeAndReencode -fuzztime 60s
func FuzzSafeRawIsDecodeAndReencode(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a\"b\\c\u00e9\/","n":-12.5e+3,"t":true,"v":null,"a":[1,[],{},"x"]}`,
		"{\"a\":\"\x1b[31m\u0085\x9b\x7f\"}", "{\"a\":\n\t1 ,\r\n \"b\" : [ 2 ] }", `{"s":"\u001b\u0000\ud800"}`,
		"{\"k\":\"\xed\xa0\x80\xc2\"}", `{"n":12345678901234567890123,"f":1e400}`, `"\\\\\\"`, `[" ", "\t"]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var v any
		d := gojson.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		var whole any // Unmarshal refuses what follows the value; the decoder keeps the numbers' text
		if gojson.Unmarshal(raw, &whole) != nil || d.Decode(&v) != nil || !json.Valid(toleratedAway(raw)) {
			return // not an item the scan lets through
		}
		out := safeRaw(nil, raw)
		if !json.Valid(out) {
			t.Fatalf("%q: the output %q is not JSON", raw, out)
		}
		for i := 0; i < len(out); {
			r, size := utf8.DecodeRune(out[i:])
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == utf8.RuneError && size == 1 {
				t.Fatalf("%q: the output %q holds %q", raw, out, r)
			}
			i += size
		}
		again, err := json.Marshal(v)
		if err != nil {
			return // a number encoding/json cannot write (1e400): the reference has no answer
		}
		if got, want := decodeStrict(t, out), decodeStrict(t, again); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: written as %q (%#v); decoded and encoded again %q (%#v)", raw, out, got, again, want)
		}
	})
}

// toleratedAway is raw with what the scan lets by and encoding/json does
// not (raw control characters and bad UTF-8 inside strings) made plain, so
// that encoding/json judges the rest as the scan does (FuzzValueScan-
// AgreesWithDecode in api shows the two agree); the tolerant decoder alone
// accepts more (0001).
func toleratedAway(raw []byte) []byte {
	out := bytes.Clone(raw)
	in, esc := false, false
	for i := 0; i < len(out); {
		c := out[i]
		switch {
		case !in:
			in = c == '"'
		case esc:
			esc = false
		case c == '\\':
			esc = true
		case c == '"':
			in = false
		case c < 0x20:
			out[i] = ' '
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(out[i:])
			if r == utf8.RuneError && size == 1 {
				out[i] = '?'
			}
			i += size
			continue
		}
		i++
	}
	return out
}

func decodeStrict(t *testing.T, b []byte) any {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%q: %v", b, err)
	}
	return v
}
