package redact

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// couldStartByFmt is couldStart as it was written before it stopped
// allocating (fmt for each escaped form, closures): the reference the
// allocation-free one must agree with.
func couldStartByFmt(r Redactor, b []byte) bool {
	if r.secret == "" || len(b) == 0 || !r.mayStart(b[0]) {
		return false
	}
	var match, next func(b []byte, tok string) bool
	next = func(b []byte, rest string) bool {
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
		return match(b, rest)
	}
	match = func(b []byte, tok string) bool {
		if len(tok) == 0 || len(b) == 0 {
			return true
		}
		c, size := utf8.DecodeRuneInString(tok)
		rest := tok[size:]
		lit := []byte(string(c))
		n := min(len(lit), len(b))
		if bytes.EqualFold(b[:n], lit[:n]) && (n < len(lit) || next(b[n:], rest)) {
			return true
		}
		var pct []byte
		for _, x := range lit {
			pct = fmt.Appendf(pct, "%%%02X", x)
		}
		if n := min(len(pct), len(b)); bytes.EqualFold(b[:n], pct[:n]) && (n < len(pct) || next(b[n:], rest)) {
			return true
		}
		for _, esc := range []string{fmt.Sprintf(`\u%04x`, c), map[bool]string{true: `\/`}[c == '/']} {
			if esc == "" {
				continue
			}
			if n := min(len(esc), len(b)); bytes.EqualFold(b[:n], []byte(esc[:n])) && (n < len(esc) || next(b[n:], rest)) {
				return true
			}
		}
		return false
	}
	return match(b, r.secret)
}

// TestCouldStartAgreesWithItsReference: the writer and the body ask
// couldStart at each position of every chunk's tail; written without fmt
// it must answer as before, for tokens with slashes, letters beyond ASCII
// and beyond the BMP, at every position of their forms (each character as
// itself in either case, %XX, \uXXXX, \/, invisible characters between)
// cut at every length, and of random text.
func TestCouldStartAgreesWithItsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	invisible := []string{"\u200b", `\u200b`, "%E2%80%8B", "\u00ad", `\udb40\udc01`}
	for _, tok := range []string{"vdsim_admin_9f3a61c2d4e5b708", "tok/Ab-9.x", "clé-Ünïcode-ß", "emoji\U0001F600tail", "K\u212aelvin"} {
		red := New(tok)
		for range 200 {
			var form strings.Builder
			for i, c := range tok {
				if i > 0 && rng.IntN(5) == 0 {
					form.WriteString(invisible[rng.IntN(len(invisible))])
				}
				switch rng.IntN(6) {
				case 0:
					for _, x := range []byte(string(c)) {
						fmt.Fprintf(&form, "%%%02x", x)
					}
				case 1:
					fmt.Fprintf(&form, `\u%04X`, c)
				case 2:
					if c == '/' {
						form.WriteString(`\/`)
					} else {
						form.WriteString(strings.ToUpper(string(c)))
					}
				default:
					form.WriteRune(c)
				}
			}
			text := []byte("x" + form.String() + `","n":\u0041%4` + string(rune(rng.IntN(0x3000))))
			for i := range text {
				for j := i; j <= len(text); j++ {
					if got, want := red.couldStart(text[i:j]), couldStartByFmt(red, text[i:j]); got != want {
						t.Fatalf("token %q, %q: couldStart %v, the reference %v", tok, text[i:j], got, want)
					}
				}
			}
		}
	}
}

func TestCouldStartAllocatesNothing(t *testing.T) {
	red := New("bench-token-0123")
	text := []byte(`"name":"b` + "\u200b" + `%65\u006Ech-tok`)
	if n := testing.AllocsPerRun(100, func() {
		for i := range text {
			red.couldStart(text[i:])
		}
	}); n != 0 {
		t.Fatalf("couldStart allocated %v times a run", n)
	}
}
