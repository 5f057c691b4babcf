package redact

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// chunky hands out its input in reads of random sizes (1 to 40 bytes).
type chunky struct {
	s    string
	rnd  *rand.Rand
	most int
}

func (c *chunky) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	n := min(len(p), len(c.s), 1+c.rnd.IntN(c.most))
	copy(p, c.s[:n])
	c.s = c.s[n:]
	return n, nil
}

// TestRedactingBodyAnySplit: every form of the token is removed however
// the body is split across reads, the result is the same JSON with
// [REDACTED] in place of each form, and a look-alike inside an escape
// sequence (`\t` then the token's letters) is left alone, keeping the
// JSON valid.
func TestRedactingBodyAnySplit(t *testing.T) {
	red := New(slashToken)
	var b strings.Builder
	b.WriteString(`{"a":[`)
	i := 0
	for _, form := range echoForms(slashToken) {
		if i > 0 {
			b.WriteByte(',')
		}
		i++
		b.WriteString(`"x ` + strings.ReplaceAll(form, `"`, `\"`) + ` y"`)
	}
	b.WriteString(`],"esc":"\\` + slashToken + `","ok":"é – done"}`)
	// padded so that reads of up to 2 KB hold whole forms and clean runs
	body := strings.Replace(b.String(), `{"a":[`, `{"pad":"`+strings.Repeat("x", 3000)+`","a":[`, 1)
	for seed := range uint64(400) {
		most := 40 // small reads: forms split across many
		if seed%2 == 1 {
			most = 2048 // large reads: whole forms and clean runs in one
		}
		var src io.Reader = &chunky{s: body, rnd: rand.New(rand.NewPCG(seed, 1)), most: most}
		if seed == 0 {
			src = iotest.OneByteReader(strings.NewReader(body))
		}
		got, err := io.ReadAll(Body(io.NopCloser(src), red))
		if err != nil {
			t.Fatal(err)
		}
		if leaks(string(got)) {
			t.Fatalf("seed %d: token left in %s", seed, got)
		}
		var v map[string]any
		if err := json.Unmarshal(got, &v); err != nil {
			t.Fatalf("seed %d: %v in %s", seed, err, got)
		}
		if v["esc"] != `\[REDACTED]` || v["ok"] != "é – done" || len(v["pad"].(string)) != 3000 {
			t.Fatalf("seed %d: %q %q", seed, v["esc"], v["ok"])
		}
		if seed == 1 && strings.Count(string(got), Redacted) != len(echoForms(slashToken))+1 {
			t.Errorf("%d redactions in %s", strings.Count(string(got), Redacted), got)
		}
	}
}

// TestRedactingBodyLeavesEscapesWhole: `\t` followed by the rest of a
// token that starts with t is a tab and other text, not the token;
// replacing from the t would leave `\[`, which is not JSON.
func TestRedactingBodyLeavesEscapesWhole(t *testing.T) {
	body := `{"tab":"\tok-SECRET-123","real":"\\\\tok-SECRET-123"}`
	got, err := io.ReadAll(Body(io.NopCloser(iotest.OneByteReader(strings.NewReader(body))), New(secretToken)))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]string
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("%v in %s", err, got)
	}
	if v["tab"] != "\tok-SECRET-123" || v["real"] != `\\`+Redacted {
		t.Errorf("%q", v)
	}
}

// TestRedactingBodyEscapedLetters: a server may \u-escape the token's
// letters and digits themselves (any JSON encoder may; a hostile echo
// will). A decoder turns them back into the token, so the console drew it
// and the cache kept it: the quick check looked for the letters as
// themselves only. Every letter escaped, and only one, each in small and
// large reads.
func TestRedactingBodyEscapedLetters(t *testing.T) {
	const tok = "vdtok_SECRET/abc+xyz123456"
	all := ""
	for _, c := range tok {
		all += fmt.Sprintf(`\u%04x`, c)
	}
	one := strings.Replace(tok, "z", `\u007a`, 1)
	pct := strings.Replace(tok, "z", `%7A`, 1)
	red := New(tok)
	for name, form := range map[string]string{"every letter": all, "one letter": one, "one letter URL-escaped": pct} {
		body := `{"pad":"` + strings.Repeat("x", 3000) + `","name":"N ` + form + ` end","ok":"\u00e9"}`
		for _, most := range []int{7, 4096} {
			src := &chunky{s: body, rnd: rand.New(rand.NewPCG(uint64(most), 1)), most: most}
			got, err := io.ReadAll(Body(io.NopCloser(src), red))
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]string
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatalf("%s, reads of %d: %v in %s", name, most, err, got)
			}
			if strings.Contains(v["name"], "SECRET") || strings.Contains(string(got), "SECRET") || v["name"] != "N [REDACTED] end" || v["ok"] != "é" {
				t.Errorf("%s, reads of %d: decoded name %q (body %.80q…)", name, most, v["name"], got[3008:])
			}
		}
	}
}
