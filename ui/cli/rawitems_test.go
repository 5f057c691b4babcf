package cli

import (
	"strings"
	"testing"
)

// TestRecycleBinJSONRefusesABrokenItem: --json writes each entry's own bytes
// without decoding them, so the scanner's check is all that keeps a broken
// entry off stdout. A broken second entry stops the listing after the
// first, with the item's number and the byte, in one line, exit 1; the
// array is never closed as if whole. A scalar or array entry is refused the
// same way (a decode refused it before).
func TestRecycleBinJSONRefusesABrokenItem(t *testing.T) {
	for name, second := range map[string]string{
		"literal": `{"id":"e2","ok":tru}`,
		"number":  `{"id":"e2","n":01}`,
		"escape":  `{"id":"e2","s":"\x41"}`,
		"comma":   `{"id":"e2",}`,
		"scalar":  `"e2"`,
		"array":   `["e2"]`,
	} {
		for _, format := range []string{"--json", "--jsonl"} {
			r := runAgainst(t, jsonBody(`{"items":[{"id":"e1"},`+second+`,{"id":"e3"}],"total":3}`), "recycle-bin", format)
			if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "items item 2") ||
				!strings.Contains(r.stderr, "1 item was written before this error") {
				t.Errorf("%s %s: exit %d, stderr %q", name, format, r.code, r.stderr)
			}
			if !strings.Contains(r.stdout, `"e1"`) || strings.Contains(r.stdout, "e2") || strings.Contains(r.stdout, "e3") || strings.Contains(r.stdout, "]") {
				t.Errorf("%s %s: stdout %q", name, format, r.stdout)
			}
		}
	}
}

// TestRecycleBinJSONRedactsEchoedToken: entries written as sent still lose
// the token in every form a server echoes it (raw, JSON-escaped, URL-escaped,
// another case, split by an invisible character), and a control character
// beside it is escaped.
func TestRecycleBinJSONRedactsEchoedToken(t *testing.T) {
	forms := []string{`tok-SECRET-123`, `tok\u002dSECRET\u002d123`, `tok%2DSECRET%2D123`, `TOK-secret-123`, `tok-SEC\u200bRET-123`, "tok-SECRET-123\x1b[2J"}
	var items []string
	for _, f := range forms {
		items = append(items, `{"id":"e","note":"`+f+`"}`)
	}
	for _, format := range []string{"--json", "--jsonl"} {
		r := runAgainst(t, jsonBody(`{"items":[`+strings.Join(items, ",")+`],"total":6}`), "recycle-bin", format)
		if r.code != 0 || strings.Count(r.stdout, "[REDACTED]") != len(forms) || strings.Contains(strings.ToLower(r.stdout), "secret") || strings.Contains(r.stdout, "\x1b") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", format, r.code, r.stdout, r.stderr)
		}
	}
}
