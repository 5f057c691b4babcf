package redact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMayContainNeverMissesAForm: the quick check that lets a write pass
// without the full pattern (one memchr of the anchor's first letter) says
// "maybe" wherever the pattern finds the token, for random tokens echoed in
// random forms (each character as itself in either case, %XX, \uXXXX, \/,
// invisible characters between them raw or escaped) inside listing text.
func TestMayContainNeverMissesAForm(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	invisible := []string{"\u200b", `\u200b`, "%E2%80%8B", "\u00ad", "\U000E0001", `\udb40\udc01`}
	for n := range 300 {
		var tok strings.Builder
		tok.WriteString([]string{"vdsim_admin_", "sk-", "", "tok/"}[n%4])
		for range 8 + rng.IntN(20) {
			tok.WriteByte(alnum[rng.IntN(len(alnum))])
			if rng.IntN(8) == 0 {
				tok.WriteByte("-_./"[rng.IntN(4)])
			}
		}
		red := New(tok.String())
		var form strings.Builder
		for i, c := range tok.String() {
			if i > 0 && rng.IntN(6) == 0 {
				form.WriteString(invisible[rng.IntN(len(invisible))])
			}
			switch k := rng.IntN(10); {
			case k == 0:
				fmt.Fprintf(&form, "%%%02X", c)
			case k == 1:
				fmt.Fprintf(&form, `\u%04x`, c)
			case k == 2 && c == '/':
				form.WriteString(`\/`)
			case k < 5:
				form.WriteString(strings.ToUpper(string(c)))
			default:
				form.WriteRune(c)
			}
		}
		text := `{"id":"6f1c2d3e-0000-4000-8000-000000000012","vault_project":{"name":"Project — ` + form.String() + `","files_count":3}}`
		if !red.re.MatchString(text) {
			continue // a form the pattern does not know: not this check's concern
		}
		if !red.mayContain([]byte(text)) {
			t.Fatalf("token %q as %q: the pattern matches, mayContain says no (anchor %q)", tok.String(), form.String(), red.anchor)
		}
	}
}
