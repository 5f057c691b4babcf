package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// splitForms are the token with invisible characters inside it (issue 26
// case 8): each default-ignorable character a server or a paste may carry,
// raw and JSON-escaped, alone or in runs, between every two characters or
// at one place.
func splitForms(tok string) map[string]string {
	between := func(sep string) string {
		var b strings.Builder
		for i, c := range tok {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteRune(c)
		}
		return b.String()
	}
	forms := map[string]string{}
	for name, sep := range map[string]string{
		"ZWSP": "\u200b", "ZWNJ": "\u200c", "ZWJ": "\u200d", "WJ": "\u2060", "BOM": "\ufeff", "SHY": "\u00ad",
		"MVS": "\u180e", "VS16": "\ufe0f", "CGJ": "\u034f", "TAG": "\U000E0041", "LRM": "\u200e", "run": "\u200b\u00ad\u2060",
		"esc-zwsp": `\u200b`, "esc-ZWSP": `\u200B`, "esc-shy": `\u00AD`, "esc-bom": `\ufeff`, "esc-tag": `\udb40\udc41`,
		"esc-vs": `\uFE0F`, "esc-run": `\u200b\u2060\u00ad`,
	} {
		forms[name+"-every"] = between(sep)
		forms[name+"-once"] = tok[:5] + sep + tok[5:]
	}
	forms["mixed"] = tok[:3] + "\u200b" + tok[3:7] + `\u00ad` + tok[7:9] + "\ufeff\u2060" + tok[9:]
	forms["url-slash"] = strings.ReplaceAll(between("\u200b"), "/", "%2F")
	forms["url-zwsp"] = between("%E2%80%8B")              // as in a query string
	forms["url-tag"] = tok[:6] + "%f3%a0%81%81" + tok[6:] // U+E0041, lower-case hex
	forms["url-shy-every"] = strings.ReplaceAll(between("%C2%AD"), "/", "%2F")
	return forms
}

// TestRedactionSeesThroughIgnorables: the token split by invisible
// characters is removed from errors, output and bodies (whole and read in
// any split), and text where such characters sit next to other words is
// left alone.
func TestRedactionSeesThroughIgnorables(t *testing.T) {
	red := New(slashToken)
	for name, form := range splitForms(slashToken) {
		in := "before " + form + " after"
		if got := red.String(in); leaks(stripIgnorables(got)) || !strings.Contains(got, Redacted) {
			t.Errorf("%s: error text keeps the token: %q", name, got)
		}
		var out bytes.Buffer
		rw := NewWriter(&out, func() Redactor { return red })
		for i := 0; i < len(in); i += 3 { // written in pieces
			rw.Write([]byte(in[i:min(i+3, len(in))]))
		}
		rw.Flush()
		if leaks(stripIgnorables(out.String())) {
			t.Errorf("%s: output keeps the token: %q", name, out.String())
		}
		body, _ := json.Marshal(map[string]string{"pad": strings.Repeat("x", 2000), "name": "x " + form + " y"})
		if strings.Contains(form, `\u`) { // already escaped: put it in as sent
			body = []byte(`{"pad":"` + strings.Repeat("x", 2000) + `","name":"x ` + form + ` y"}`)
		}
		for seed := range uint64(40) {
			var src io.Reader = &chunky{s: string(body), rnd: rand.New(rand.NewPCG(seed, 7)), most: 40}
			if seed == 0 {
				src = iotest.OneByteReader(bytes.NewReader(body))
			}
			got, err := io.ReadAll(Body(io.NopCloser(src), red))
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]string
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatalf("%s seed %d: not JSON after redaction: %v\n%s", name, seed, err, got)
			}
			if leaks(stripIgnorables(v["name"])) || !strings.Contains(v["name"], Redacted) {
				t.Fatalf("%s seed %d: the body keeps the token: %q", name, seed, v["name"])
			}
		}
	}
	for _, fine := range []string{"a\u200bb", "word\u00adbreak", "vd/Secret\u200b", "emoji \u2764\ufe0f"} {
		if got := red.String(fine); got != fine {
			t.Errorf("%q changed to %q", fine, got)
		}
	}
}

// stripIgnorables is what a reader sees: the invisible characters (raw
// and escaped) gone.
func stripIgnorables(s string) string {
	for _, esc := range []string{`\u200b`, `\u200B`, `\u00AD`, `\u00ad`, `\ufeff`, `\udb40\udc41`, `\uFE0F`, `\u2060`,
		"%E2%80%8B", "%f3%a0%81%81", "%C2%AD", "%2F"} {
		s = strings.ReplaceAll(s, esc, "")
	}
	return strings.Map(func(r rune) rune {
		if isIgnorable(r) {
			return -1
		}
		return r
	}, s)
}

// BenchmarkRedactingBodyIgnorables reads a 20 MB listing through the body
// Redactor: plain, and with a zero-width space in every name (each chunk
// then goes to the full pattern).
func BenchmarkRedactingBodyIgnorables(b *testing.B) {
	red := New(slashToken)
	for _, name := range []string{"plain", "zwsp"} {
		var body bytes.Buffer
		body.WriteString(`{"items":[`)
		for i := range 100_000 {
			n := fmt.Sprintf(`{"id":"%08d","name":"Project name number %d é"}`, i, i)
			if name == "zwsp" {
				n = strings.Replace(n, "Project", "Pro\u200bject", 1)
			}
			if i > 0 {
				body.WriteByte(',')
			}
			body.WriteString(n)
		}
		body.WriteString(`]}`)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(body.Len()))
			for b.Loop() {
				io.Copy(io.Discard, Body(io.NopCloser(bytes.NewReader(body.Bytes())), red))
			}
		})
	}
}
