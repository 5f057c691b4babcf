package redact

import (
	"net/url"
	"strings"
)

// slashToken has the characters that escape differently in URLs and JSON.
const slashToken = "vd/Secret+Part=42/xyz"

// leaks reports whether s holds the token in any recognisable form: every
// test token's distinctive part is "secret", in any case.
func leaks(s string) bool { return strings.Contains(strings.ToLower(s), "secret") }

// echoForms are the ways a server has been seen to echo a token, as JSON
// string contents.
func echoForms(tok string) map[string]string {
	jsonSlash := strings.ReplaceAll(tok, "/", `\/`)
	return map[string]string{
		"raw":        tok,
		"json-slash": jsonSlash,
		"json-u002f": strings.ReplaceAll(tok, "/", `\u002f`),
		"json-u002F": strings.ReplaceAll(tok, "/", `\u002F`),
		"json-all":   strings.ReplaceAll(strings.ReplaceAll(tok, "/", `\u002f`), "+", `\u002b`),
		"query":      url.QueryEscape(tok),
		"path":       url.PathEscape(tok),
		"lower":      strings.ToLower(tok),
		"upper":      strings.ToUpper(jsonSlash),
		"mixed":      "vD/sEcReT+pArT=42/XyZ",
		"bearer":     "Bearer " + tok,
	}
}

// secretToken is a token without the characters that escape.
const secretToken = "tok-SECRET-123"
