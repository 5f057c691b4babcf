// Package redact removes the token from whatever the service sends back:
// anything it sends may echo the token (a misconfigured proxy, a debugging
// error page), so every server-supplied string that reaches an error passes
// through a Redactor first, every response body through Body as it is read,
// and everything written to the process's output through a Writer. The api
// packages cannot import the ui sanitizer (ui depends on api, never the
// reverse), so Clean is a minimal control-character stripper for error text.
package redact

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Redacted is what stands where a token was.
const Redacted = "[REDACTED]"

// bearerPattern catches a token we were not told about, e.g. an
// Authorization header echoed by a proxy. Compiled on first use: package
// initialisation is on every command's path to its first output.
var bearerPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(bearer)(\s+|%20|\+)[^\s"'&,;]+`)
})

// Redactor removes one token in every form a server has been seen to echo
// it: raw, URL-escaped (query or path), JSON-escaped (`\/`, `\u002f`, any
// \u escape), and in any letter case. One pattern covers all of them: each
// character of the token may appear as itself, as %XX, or as \uXXXX.
type Redactor struct {
	secret string
	re     *regexp.Regexp
	anchor []byte // a letters-and-digits run of the token, for a quick pre-check (anchorOf)
}

// New is the redactor of secret; the zero Redactor (secret "") removes
// only what looks like a bearer token.
func New(secret string) Redactor {
	if secret == "" {
		return Redactor{}
	}
	r := Redactor{secret: secret, re: compiledForms(secret)}
	r.anchor = anchorOf(secret)
	return r
}

// compiled keeps the last few tokens' patterns: with the invisible
// characters between every two letters a pattern takes ~10 ms to compile,
// and a process (a test suite above all) makes many clients on one token.
var compiled = struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}{m: map[string]*regexp.Regexp{}}

func compiledForms(secret string) *regexp.Regexp {
	compiled.Lock()
	defer compiled.Unlock()
	if re, ok := compiled.m[secret]; ok {
		return re
	}
	if len(compiled.m) >= 16 {
		clear(compiled.m)
	}
	re := formsPattern(secret)
	compiled.m[secret] = re
	return re
}

// formsPattern builds the case-insensitive pattern of every escaped form.
// Between two characters any run of default-ignorable ones may stand, raw
// or escaped (ignorable.go): invisible on screen, they would otherwise show
// the token whole while no form of it matched.
func formsPattern(secret string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?i)")
	for i, c := range secret {
		if i > 0 {
			b.WriteString(ignorablePattern() + "*")
		}
		alts := []string{regexp.QuoteMeta(string(c))}
		var pct strings.Builder
		for _, x := range []byte(string(c)) {
			fmt.Fprintf(&pct, "%%%02x", x)
		}
		alts = append(alts, pct.String())
		if c < 0x10000 {
			alts = append(alts, fmt.Sprintf(`\\u%04x`, c))
		}
		switch c {
		case '/':
			alts = append(alts, `\\/`)
		case ' ':
			alts = append(alts, `\+`)
		}
		b.WriteString("(?:" + strings.Join(alts, "|") + ")")
	}
	return regexp.MustCompile(b.String())
}

// anchorOf picks, among the token's ASCII letters-and-digits runs (no
// escaping touches those), the character least common in JSON listings that
// still has three more of the run after it, and returns the run from that
// character on. Both the quick check for the token whole
// (mayContain) and the one for it split by invisible characters
// (anchorSplit) then start with a memchr of that character: scanning a large
// output for the token costs little more than one. The hexadecimal letters
// and the digits rank last: identifiers and times fill listings with them.
func anchorOf(secret string) []byte {
	const byRarity = "zqxjkvwygpmhuloinrstfdcbea9876543210"
	var best []byte
	rank := len(byRarity) + 1
	for start := 0; start < len(secret); {
		end := start
		for end < len(secret) && isAlnum(secret[end]) {
			end++
		}
		for i := start; i+4 <= end; i++ {
			if r := strings.IndexByte(byRarity, lower(secret[i])); r >= 0 && r < rank {
				best, rank = []byte(secret[i:end]), r
			}
		}
		start = end + 1
	}
	return best
}

// hasAlnumEscape reports whether b holds a letter or digit written as a
// JSON \uXXXX or URL %XX escape (two IndexByte scans when it holds none).
func hasAlnumEscape(b []byte) bool {
	for _, mark := range []byte{'\\', '%'} {
		for off := 0; ; {
			i := bytes.IndexByte(b[off:], mark)
			if i < 0 {
				break
			}
			i += off
			off = i + 1
			hex := b[i+1:]
			if mark == '\\' {
				if len(hex) < 5 || hex[0]|0x20 != 'u' || hex[1] != '0' || hex[2] != '0' {
					continue
				}
				hex = hex[3:]
			}
			if len(hex) >= 2 {
				if v, err := strconv.ParseUint(string(hex[:2]), 16, 8); err == nil && isAlnum(byte(v)) {
					return true
				}
			}
		}
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// mayContain is a quick, conservative check: false means b holds no form
// of the token. It looks for the anchor's letters as themselves, or with
// only default-ignorable characters between them (a token split by
// invisible characters), from each place its first letter is (one memchr
// for each case of it); a letter or digit escaped (\u0041, %41) sends b
// to the full pattern instead, since a decoder turns it back into the
// token and no encoder needs to escape one.
func (r Redactor) mayContain(b []byte) bool {
	if r.secret == "" {
		return false
	}
	if r.anchor == nil || hasAlnumEscape(b) {
		return true
	}
	lo, a1 := lower(r.anchor[0]), lower(r.anchor[1])
	for _, c := range []byte{lo, lo - ('a' - 'A')} {
		if c < 'A' && c != lo {
			break // a digit: one case
		}
		for off := 0; ; {
			i := bytes.IndexByte(b[off:], c)
			if i < 0 {
				break
			}
			off += i + 1
			// The byte after the letter decides most places at once: the
			// anchor's next letter, or what begins an invisible character
			// (raw, \u-escaped or %-escaped); anything else is not the token.
			if off < len(b) {
				if n := b[off]; lower(n) != a1 && n != '\\' && n != '%' && n < utf8.RuneSelf {
					continue
				}
			}
			if r.anchorAt(b[off-1:]) {
				return true
			}
		}
	}
	return false
}

// anchorAt reports whether b, which starts with the anchor's first letter,
// holds the rest of it, directly or with default-ignorable characters (raw
// or escaped) between its letters.
func (r Redactor) anchorAt(b []byte) bool {
	a := r.anchor
	if len(b) >= len(a) && bytes.EqualFold(b[:len(a)], a) {
		return true
	}
	p, k := 1, 1
	for k < len(a) && p < len(b) {
		if lower(b[p]) == lower(a[k]) {
			p, k = p+1, k+1
			continue
		}
		n, _ := ignorableAt(b[p:])
		if n == 0 {
			break
		}
		p += n
	}
	return k == len(a)
}

// couldStart reports whether b is the beginning of a form of the token (or
// holds a whole one at its start): each character of the token as itself in
// any case, %XX, \uXXXX, or \/ for a slash, with any default-ignorable
// characters between two of them. It allocates nothing: the writer asks it
// at each of the last few hundred positions of every write.
func (r Redactor) couldStart(b []byte) bool {
	if r.secret == "" || len(b) == 0 || !r.mayStart(b[0]) {
		return false
	}
	return formStarts(b, r.secret)
}

// formStarts is couldStart from the token's rest tok on.
func formStarts(b []byte, tok string) bool {
	if len(tok) == 0 || len(b) == 0 {
		return true
	}
	c, size := utf8.DecodeRuneInString(tok)
	rest := tok[size:]
	// as itself
	lit := tok[:size]
	if c == utf8.RuneError && size == 1 {
		lit = string(utf8.RuneError)
	}
	if prefixFold(b, lit) && (len(b) < len(lit) || afterForm(b[len(lit):], rest)) {
		return true
	}
	// %XX for each of its bytes
	var pct [4 * 3]byte
	n := 0
	for i := 0; i < len(lit); i++ {
		pct[n], pct[n+1], pct[n+2] = '%', hexDigits[lit[i]>>4], hexDigits[lit[i]&15]
		n += 3
	}
	if prefixFold(b, string(pct[:n])) && (len(b) < n || afterForm(b[n:], rest)) {
		return true
	}
	// \uXXXX (beyond the BMP the escape has more digits and matches no
	// JSON form, as before), and \/ for a slash
	var u [10]byte
	esc := append(u[:0], '\\', 'u')
	esc = appendHex4(esc, c)
	if prefixFold(b, string(esc)) && (len(b) < len(esc) || afterForm(b[len(esc):], rest)) {
		return true
	}
	return c == '/' && prefixFold(b, `\/`) && (len(b) < 2 || afterForm(b[2:], rest))
}

// afterForm skips the invisible characters that may stand between two of
// the token's characters, then goes on with formStarts.
func afterForm(b []byte, rest string) bool {
	for len(rest) > 0 && len(b) > 0 {
		n, partial := ignorableAt(b)
		if partial {
			return true
		}
		if n == 0 {
			break
		}
		b = b[n:]
	}
	return formStarts(b, rest)
}

// prefixFold reports whether b and s agree over the shorter of the two,
// letter case aside (bytes.EqualFold; the conversion of so short a string
// stays on the stack).
func prefixFold(b []byte, s string) bool {
	n := min(len(b), len(s))
	return bytes.EqualFold(b[:n], []byte(s[:n]))
}

const hexDigits = "0123456789ABCDEF"

// appendHex4 appends c in hexadecimal, at least four digits (fmt's %04x).
func appendHex4(dst []byte, c rune) []byte {
	digits := 4
	for v := c >> 16; v > 0; v >>= 4 {
		digits++
	}
	for shift := (digits - 1) * 4; shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[(c>>shift)&15])
	}
	return dst
}

// mayStart is couldStart's quick refusal, for the writer that asks it at
// each of the last few hundred positions of every write: a form of the
// token begins with its first character in either case, with '%' or '\\'
// (an escape), or, for a token that begins beyond ASCII, with such a byte.
func (r Redactor) mayStart(c byte) bool {
	first := r.secret[0]
	return c == '%' || c == '\\' || lower(c) == lower(first) || first >= utf8.RuneSelf && c >= utf8.RuneSelf
}

// Redacts reports whether r is the redactor of tok.
func (r Redactor) Redacts(tok string) bool { return r.secret == tok }

// String is s with the token, in any of its forms, and anything that looks
// like a bearer token replaced by Redacted.
func (r Redactor) String(s string) string {
	if r.secret != "" {
		re := r.re
		if re == nil {
			re = compiledForms(r.secret)
		}
		s = re.ReplaceAllLiteralString(s, Redacted)
	}
	return bearerPattern().ReplaceAllString(s, "${1} "+Redacted)
}

// Clean makes server text inert and single-line: invalid UTF-8 replaced,
// control characters (which start escape sequences) and bidi overrides
// dropped, whitespace runs collapsed.
func Clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || r == ' ':
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = true
			continue
		case unicode.IsControl(r), (r >= 0x202A && r <= 0x202E), (r >= 0x2066 && r <= 0x2069), r == 0x200E, r == 0x200F, r == 0x061C:
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// SafeText is what goes into an error: token removed first (so that
// stripping control characters cannot re-join a split token), then cleaned,
// then redacted again, then shortened to max bytes.
func (r Redactor) SafeText(s string, max int) string {
	s = r.String(Clean(r.String(s)))
	return Truncate(s, max)
}

// Truncate shortens s to at most max bytes (0: no limit), on a rune's
// boundary, marking the cut with an ellipsis.
func Truncate(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
