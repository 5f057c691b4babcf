package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/vaultdeck/vaultdeck/api/jsonstream"
	"github.com/vaultdeck/vaultdeck/api/plural"
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

const (
	errorBodyLimit = 64 << 10 // an error page is never worth more
	// headCapture is how much of a body is kept for a malformed-response
	// message; far more than is shown, so that a token straddling the end
	// of the capture is still whole in the part that is shown.
	headCapture = 4 << 10
	headShown   = 160
)

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

// headReader keeps the first bytes of a body for error messages.
type headReader struct {
	r    io.Reader
	head []byte
	n    int64
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := headCapture - len(h.head); room > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	h.n += int64(n)
	return n, err
}

// decodeJSON streams a 2xx body into v; a body that is not the promised JSON
// becomes a KindMalformed error naming the endpoint, status and what was
// wrong, with the start of the body (cleaned, token removed).
func (c *Client) decodeJSON(resp *http.Response, ep endpoint, red redact.Redactor, v any) error {
	return c.decodeJSONBody(resp, ep, red, v, true)
}

// decodeJSONBody is decodeJSON; copy says whether the body goes to a
// WithBodyCopy consumer (not for an envelope: decodeContent offers the
// content).
func (c *Client) decodeJSONBody(resp *http.Response, ep endpoint, red redact.Redactor, v any, copy bool) error {
	defer resp.Body.Close()
	body, kept := io.Reader(resp.Body), func() {}
	if copy {
		body, kept = tapBody(resp.Request.Context(), resp.Body) // WithBodyCopy (bodytap.go)
	}
	gate := gateOf(resp.Request.Context())
	if gate != nil {
		gate.marked = true // whitespace is no progress (jsonstream.Limiter)
	}
	hr := &headReader{r: &jsonstream.Limiter{R: body, Lim: jsonstream.Default, Progress: gate.counter()}}
	dec := json.NewDecoder(hr)
	err := dec.Decode(v)
	if err == nil {
		kept()
		return nil
	}
	if le := (*jsonstream.LimitError)(nil); errors.As(err, &le) {
		return overLimit(ep, resp.StatusCode, le, "")
	}
	if te := asTimeout(ep, err); te != nil {
		return te
	}
	if ctxErr := resp.Request.Context().Err(); ctxErr != nil {
		return canceled(ep, ctxErr)
	}
	return malformed(ep, resp.StatusCode, red, describeDecodeError(err, hr.n), hr.head)
}

func malformed(ep endpoint, status int, red redact.Redactor, what string, head []byte) *Error {
	msg := red.SafeText(what, 300)
	if len(head) > 0 {
		msg += fmt.Sprintf("; body starts with %q", red.SafeText(string(head), headShown))
	}
	return &Error{Kind: KindMalformed, Endpoint: ep.String(), Status: status, Message: msg}
}

func describeDecodeError(err error, n int64) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF) && n == 0:
		return "empty body where JSON was expected"
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Sprintf("truncated JSON: the body ended after %s", plural.Count(n, "byte"))
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d: %v", syn.Offset, err)
	case errors.As(err, &typ):
		return fmt.Sprintf("unexpected shape: field %q holds a %s", typ.Field, typ.Value)
	default:
		return "cannot decode: " + err.Error()
	}
}

// envelope is {"response":{"content": ...}}, which wraps project listings,
// file listings and get_files.
type envelope struct {
	Response *struct {
		Content json.RawMessage `json:"content"`
	} `json:"response"`
}

// decodeContent reads an enveloped body into v.
func (c *Client) decodeContent(resp *http.Response, ep endpoint, red redact.Redactor, v any) error {
	status := resp.StatusCode
	var env envelope
	if err := c.decodeJSONBody(resp, ep, red, &env, false); err != nil {
		return err
	}
	if env.Response == nil || len(env.Response.Content) == 0 {
		return malformed(ep, status, red, `the body lacks the "response"."content" envelope`, nil)
	}
	if err := json.Unmarshal(env.Response.Content, v); err != nil {
		return malformed(ep, status, red, "response.content: "+describeDecodeError(err, int64(len(env.Response.Content))), headOf(env.Response.Content))
	}
	OfferBody(resp.Request.Context(), env.Response.Content) // the content as received
	return nil
}

func headOf(b []byte) []byte {
	b = bytes.TrimSpace(b)
	return b[:min(len(b), headCapture)]
}
