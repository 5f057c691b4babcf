package jsonstream

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

// TestScannerLimits: with small limits, an item, a string, a number or a
// member beside the array past its bound stops the scan with a LimitError,
// however the body is split; items within the bounds pass.
func TestScannerLimits(t *testing.T) {
	lim := Limits{Item: 64, Str: 16, Body: 1 << 20}
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
			sc := NewScanner(r, Default)
			if split {
				sc = NewScanner(iotest.OneByteReader(strings.NewReader(body)), Default)
			}
			sc.lim = lim
			err := sc.Object("items", func([]byte) error { return nil }, func(string, []byte) error { return nil })
			var le *LimitError
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
	lim := Limits{Item: 64, Str: 8, Body: 100}
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

func readAllLimited(r interface{ Read([]byte) (int, error) }, lim Limits) ([]byte, error) {
	j := &Limiter{R: r, Lim: lim}
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
