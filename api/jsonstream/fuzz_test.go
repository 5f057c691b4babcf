package jsonstream

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzValueScanAgreesWithDecode is the proof that the one-pass item scan
// (valueScan: the item's end, its syntax, whether it prints as is) is the
// straightforward way done in one pass: for any bytes put between two
// plain items of a listing, read whole and one byte at a time,
//   - it accepts the listing exactly when encoding/json does (for text
//     without raw control characters or bad UTF-8, which it lets by as the
//     tolerant decoder does, and the output escapes);
//   - the items it hands out are, byte for byte, the ones a whole-document
//     decode finds (json.RawMessage), so writing them as sent loses and
//     adds nothing;
//   - an item it calls plain has no byte a terminal would act on (control,
//     DEL, C1, bad UTF-8).
//
// go test ./api -run '^$' -fuzz FuzzValueScanAgreesWithDecode -fuzztime 60s
// adds inputs under testdata/fuzz when it finds a disagreement.
func FuzzValueScanAgreesWithDecode(f *testing.F) {
	for _, seed := range []string{
		`{"id":"a\"b\\c\u00e9\/","n":-12.5e+3,"t":true,"v":null,"a":[1,[],{},"x"],"o":{"k":{"l":[0.5]}}}`,
		`{"vault_project":{"name":"Project — Share","files_count":42},"deleted_at":"2025-01-02T03:04:05Z"}`,
		"{\"a\":\"\x1b[31m\u0085\x9b\x7f\"}", "{\"a\":\n1}", `"\ud800"`, `[01]`, `{"a":1,}`, `{"a" 1}`, `1e`, `-`, `tru`,
		`{"k":"` + "\xed\xa0\x80" + `"}`, `{"s":"\u001b\u0000"}`, `{}`, `[]`, `null`, `0`, `"x"`, `{"a":[{"b":[{"c":{}}]}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, item []byte) {
		doc := []byte(`{"items":[{"p":1},` + string(item) + `,{"q":[2]}],"total":3}`)
		var items [][]byte
		var plains []bool
		var errs [2]error
		for k, sc := range []*Scanner{NewScanner(bytes.NewReader(doc), Default), NewScanner(oneByte{bytes.NewReader(doc)}, Default)} {
			var got [][]byte
			var plain []bool
			errs[k] = sc.Object("items", func(raw []byte) error {
				got = append(got, bytes.Clone(raw))
				plain = append(plain, sc.Plain())
				return nil
			}, func(string, []byte) error { return nil })
			if errs[k] == nil {
				errs[k] = sc.End()
			}
			if k == 0 {
				items, plains = got, plain
				continue
			}
			if (errs[0] == nil) != (errs[1] == nil) || len(got) != len(items) {
				t.Fatalf("%q: read whole %v (%d items), byte by byte %v (%d items)", item, errs[0], len(items), errs[1], len(got))
			}
		}
		err := errs[0]
		if judgedAlike(item) {
			if valid := json.Valid(doc); valid != (err == nil) {
				t.Fatalf("%q: encoding/json valid=%v, the scan's error %v", item, valid, err)
			}
		}
		if err != nil {
			return
		}
		if judgedAlike(item) {
			var whole struct{ Items []json.RawMessage }
			if e := json.Unmarshal(doc, &whole); e != nil || len(whole.Items) != len(items) {
				t.Fatalf("%q: the decode: %v, %d items; the scan %d", item, e, len(whole.Items), len(items))
			}
			for i := range items {
				if !bytes.Equal(whole.Items[i], items[i]) {
					t.Fatalf("%q: item %d scanned as %q, decoded as %q", item, i, items[i], whole.Items[i])
				}
			}
		}
		for i, raw := range items {
			if plains[i] && !printsAsIs(raw) {
				t.Fatalf("%q: item %d (%q) called plain", item, i, raw)
			}
		}
	})
}

// judgedAlike is text encoding/json judges as the scan does: no raw control
// character, DEL aside, and valid UTF-8.
func judgedAlike(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return utf8.Valid(b)
}

// printsAsIs: no byte below 0x20 (line breaks included: the output is
// one item a line), no DEL, no C1 control, valid UTF-8 without surrogates.
func printsAsIs(b []byte) bool {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == utf8.RuneError && size == 1 {
			return false
		}
		i += size
	}
	return true
}

type oneByte struct{ r *bytes.Reader }

func (o oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}
