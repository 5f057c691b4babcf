package api

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Anything the server sends back may echo the token (a misconfigured proxy,
// a debugging error page), so every server-supplied string that reaches an
// error passes through a redactor first. The api package cannot import the
// ui sanitizer (ui depends on api, never the reverse), so it has its own
// minimal control-character stripper for error text.

const redacted = "[REDACTED]"

// bearerPattern catches a token we were not told about, e.g. an
// Authorization header echoed by a proxy.
var bearerPattern = regexp.MustCompile(`(?i)(bearer)(\s+|%20|\+)[^\s"'&,;]+`)

// redactor removes one token, in its raw and URL-escaped forms.
type redactor struct{ secret string }

func (r redactor) String(s string) string {
	if r.secret != "" {
		s = strings.ReplaceAll(s, r.secret, redacted)
		if esc := url.QueryEscape(r.secret); esc != r.secret {
			s = strings.ReplaceAll(s, esc, redacted)
		}
		if esc := url.PathEscape(r.secret); esc != r.secret {
			s = strings.ReplaceAll(s, esc, redacted)
		}
	}
	return bearerPattern.ReplaceAllString(s, "${1} "+redacted)
}

// clean makes server text inert and single-line: invalid UTF-8 replaced,
// control characters (which start escape sequences) and bidi overrides
// dropped, whitespace runs collapsed.
func clean(s string) string {
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

// safeText is what goes into an error: token removed first (so that
// stripping control characters cannot re-join a split token), then cleaned,
// then redacted again, then shortened.
func (r redactor) safeText(s string, max int) string {
	s = r.String(clean(r.String(s)))
	return truncate(s, max)
}

func truncate(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
