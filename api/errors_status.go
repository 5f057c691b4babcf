package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// Compiled on first use (an HTML error page), not at start-up.
var (
	htmlTitle = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`) })
	htmlDrop  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)<(script|style|head)[^>]*>.*?</(script|style|head)>|<[^>]*>`)
	})
)

// htmlSummary reduces an HTML error page (a gateway's, a proxy's) to its
// title, or failing that to the start of its text: the markup itself is
// noise in a one-line error.
func htmlSummary(body []byte) (string, bool) {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '<' {
		return "", false
	}
	text := ""
	if m := htmlTitle().FindSubmatch(b); m != nil {
		text = html.UnescapeString(string(m[1]))
	} else {
		text = html.UnescapeString(htmlDrop().ReplaceAllString(string(b), " "))
	}
	text = redact.Truncate(redact.Clean(text), 120)
	if text == "" {
		return "an HTML page", true
	}
	return text + " (HTML page)", true
}

// errorBodyLimit is as much of an error page as is read: never worth more.
const errorBodyLimit = 64 << 10

func readErrorBody(resp *http.Response) []byte {
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
	return b
}

// serverMessage extracts the server's sentence from the error shapes seen
// ({"error":"..."}, {"error":{...}}, {"message":"..."}, {"detail":"..."} or
// a validation list), or the start of the body. A JSON body is decoded and
// every string in it (keys too) redacted before anything is taken from it,
// so no escape (\/, \u002f, any \uXXXX) can hide the token.
func serverMessage(body []byte, red redact.Redactor) string {
	if s, ok := htmlSummary(body); ok {
		return s
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return string(body)
	}
	v = redactTree(v, red)
	m, ok := v.(map[string]any)
	if !ok {
		return compactJSON(v)
	}
	for _, k := range []string{"error", "message", "detail"} {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	for _, k := range []string{"error", "detail"} {
		if x, ok := m[k]; ok && x != nil {
			return compactJSON(x)
		}
	}
	return compactJSON(v)
}

func redactTree(v any, red redact.Redactor) any {
	switch x := v.(type) {
	case string:
		return red.String(x)
	case []any:
		for i := range x {
			x[i] = redactTree(x[i], red)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[red.String(k)] = redactTree(e, red)
		}
		return out
	}
	return v
}

func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// statusError maps a non-2xx response to an *Error.
func (c *Client) statusError(ep endpoint, status int, body []byte, red redact.Redactor) *Error {
	e := &Error{Endpoint: ep.String(), Status: status, Message: red.SafeText(serverMessage(body, red), 300)}
	switch {
	case status == http.StatusUnauthorized:
		e.Kind = KindUnauthorized
		if ep.permIn401 {
			e.Permission = ep.perm
			e.TokenWorked = c.tokenOK.Load()
		}
	case status == http.StatusForbidden:
		e.Kind, e.Permission = KindForbidden, ep.perm
	case status == http.StatusNotFound:
		e.Kind = KindNotFound
	case status == http.StatusRequestEntityTooLarge:
		e.Kind = KindTooLarge
	case status == http.StatusTooManyRequests:
		e.Kind = KindRateLimited
	case status >= 500:
		e.Kind = KindServer
	case status == http.StatusBadRequest && ep.cat == CategoryMatters:
		e.Kind = KindInvalidRequest
		var be BatchError
		if json.Unmarshal(body, &be) == nil && be.Code != "" {
			be.Code = red.SafeText(be.Code, 100)
			be.Detail = red.SafeText(be.Detail, 300)
			for i := range be.ValidationErrors {
				be.ValidationErrors[i].Type = red.SafeText(be.ValidationErrors[i].Type, 100)
				be.ValidationErrors[i].Msg = red.SafeText(be.ValidationErrors[i].Msg, 200)
				for j, l := range be.ValidationErrors[i].Loc {
					if s, ok := l.(string); ok {
						be.ValidationErrors[i].Loc[j] = red.SafeText(s, 100)
					}
				}
			}
			e.Batch = &be
			e.Message = ""
		}
	case status >= 400:
		e.Kind = KindInvalidRequest
	default:
		e.Kind = KindMalformed
		e.Message = fmt.Sprintf("unexpected HTTP status %d; body starts with %q", status, red.SafeText(string(body), headShown))
	}
	return e
}
