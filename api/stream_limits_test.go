package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
)

// TestScannerLimits: with small limits, an item, a string, a number or a
// member beside the array past its bound stops the scan with a limitError,
// however the body is split; items within the bounds pass.
func TestScannerLimits(t *testing.T) {
	lim := limits{item: 64, str: 16, body: 1 << 20}
	cases := map[string]string{
		"item":          `{"items":[{"a":"x"},{"a":"` + strings.Repeat("x", 10) + `","b":[` + strings.Repeat(`1,`, 40) + `1]}]}`,
		"string":        `{"items":[{"a":"` + strings.Repeat("y", 17) + `"}]}`,
		"escaped":       `{"items":[{"a":"` + strings.Repeat(`\"`, 9) + `"}]}`,
		"number":        `{"items":[` + strings.Repeat("9", 100) + `]}`,
		"member":        `{"total":[` + strings.Repeat(`1,`, 40) + `1],"items":[]}`,
		"unended":       `{"items":["` + strings.Repeat("z", 1000),
		"key":           `{"` + strings.Repeat("k", 17) + `":1,"items":[]}`,
		"ok":            `{"items":[{"a":"` + strings.Repeat("x", 16) + `"},` + strings.Repeat("7", 60) + `],"total":2}`,
		"whitespace ok": `{"items":[` + strings.Repeat(" ", 1000) + `{"a":1}]}`,
	}
	for name, body := range cases {
		for _, split := range []bool{false, true} {
			r := strings.NewReader(body)
			sc := newScanner(r)
			if split {
				sc = newScanner(iotest.OneByteReader(strings.NewReader(body)))
			}
			sc.lim = lim
			err := sc.object("items", func([]byte) error { return nil }, func(string, []byte) error { return nil })
			var le *limitError
			if strings.HasSuffix(name, "ok") {
				if err != nil {
					t.Errorf("%s (split %v): %v", name, split, err)
				}
				continue
			}
			if !errors.As(err, &le) {
				t.Errorf("%s (split %v): want a limit error, got %v", name, split, err)
			}
		}
	}
}

// TestJSONLimiter: a body held whole is stopped past its size and at a
// string past the string limit; escapes do not end a string early.
func TestJSONLimiter(t *testing.T) {
	lim := limits{item: 64, str: 8, body: 100}
	for body, want := range map[string]string{
		`{"a":"12345678","b":"\"123456"}`:          "",
		`{"a":"123456789"}`:                        "one string",
		`{"a":"\"\"\"\"\""}`:                       "one string",
		`[` + strings.Repeat(`"1234",`, 20) + `1]`: "the body",
	} {
		_, err := readAllLimited(iotest.OneByteReader(strings.NewReader(body)), lim)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", body, err)
		case want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("%s: want %q, got %v", body, want, err)
		}
	}
}

func readAllLimited(r interface{ Read([]byte) (int, error) }, lim limits) ([]byte, error) {
	j := &jsonLimiter{r: r, lim: lim}
	var out []byte
	buf := make([]byte, 7)
	for {
		n, err := j.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return out, err
		}
	}
}

// TestHeldBoundsCountAndBytes (issue 26.3): what holds a listing's entries
// (the console and serve through RecycleBin, the table and --check) stops
// at the count bound or at the byte bound, whichever comes first, with one
// line naming the bound and the streaming ways; few entries with wide
// names used to pass the count bound and take 1.1 GB.
func TestHeldBoundsCountAndBytes(t *testing.T) {
	small := heldLimits{n: 50, bytes: 64 << 10}
	for name, width := range map[string]int{"wide": 4 << 10, "many": 10} {
		h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"items":[`))
			for i := range 100 {
				if i > 0 {
					w.Write([]byte(","))
				}
				fmt.Fprintf(w, `{"id":"e%d","vault_project":{"name":"%s"}}`, i, strings.Repeat("n", width))
			}
			w.Write([]byte(`],"total":100}`))
		}), func(c *Config) { c.Limits = Limits{Vault: -1} })
		h.c.held = small
		_, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
		want := map[string]string{"wide": "the listing's entries are over 64 KiB as sent", "many": "the listing has more than 50 entries"}[name]
		if kindOf(err) != KindTooLarge || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "--jsonl") ||
			!strings.Contains(err.Error(), "--csv") || !strings.Contains(err.Error(), "GET /api/v1/vault/workspace/recycle_bin") {
			t.Errorf("%s: %v", name, err)
		}
	}
	held := Held{lim: small} // exactly at the bound passes; one byte past it does not
	for i := range 16 {
		if err := held.Add(4 << 10); err != nil {
			t.Fatalf("entry %d: %v", i+1, err)
		}
	}
	if err := held.Add(1); err == nil {
		t.Error("a byte past the 64 KiB bound passed")
	}
}
