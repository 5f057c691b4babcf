package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	gojson "github.com/goccy/go-json"

	"github.com/vaultdeck/vaultdeck/api/jsonstream"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/redact"
)

// The GET core: one idempotent request, its body decoded whole (a bare
// JSON value, or the {"response":{"content":...}} envelope), and sent again
// when the body stalls (resending, retry.go). Every way a body can be
// wrong is worded here as a KindMalformed *Error naming the endpoint. A
// listing walked as it arrives goes through walk.go instead.

// getJSON sends a GET and decodes a bare JSON body into v.
func (c *Client) getJSON(ctx context.Context, ep endpoint, path string, q url.Values, v any) error {
	return c.resending(ctx, ep, func() error {
		resp, red, err := c.send(ctx, call{ep: ep, path: path, query: q})
		if err != nil {
			return err
		}
		return c.decodeJSON(resp, ep, red, v)
	})
}

// getContent sends a GET and decodes a {"response":{"content":...}} body.
func (c *Client) getContent(ctx context.Context, ep endpoint, path string, q url.Values, v any) error {
	return c.resending(ctx, ep, func() error {
		resp, red, err := c.send(ctx, call{ep: ep, path: path, query: q})
		if err != nil {
			return err
		}
		return c.decodeContent(resp, ep, red, v)
	})
}

// contentBytes GETs an enveloped body ({"response":{"content":...}}) and
// returns the content's bytes as received, resending a stalled body.
func (c *Client) contentBytes(ctx context.Context, ep endpoint, path string, q url.Values) (content []byte, red redact.Redactor, err error) {
	err = c.resending(ctx, ep, func() error {
		resp, r, err := c.send(ctx, call{ep: ep, path: path, query: q})
		if err != nil {
			return err
		}
		red = r
		var env envelope
		if err := c.decodeJSONBody(resp, ep, r, &env, false); err != nil {
			return err
		}
		if env.Response == nil || len(env.Response.Content) == 0 {
			return malformed(ep, resp.StatusCode, r, `the body lacks the "response"."content" envelope`, nil)
		}
		content = env.Response.Content
		OfferBody(resp.Request.Context(), content) // the content as received
		return nil
	})
	return content, red, err
}

const (
	// headCapture is how much of a body is kept for a malformed-response
	// message; far more than is shown, so that a token straddling the end
	// of the capture is still whole in the part that is shown.
	headCapture = 4 << 10
	headShown   = 160
)

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
		if err := answerEnded(ep, resp, red); err != nil {
			return err
		}
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
	if surplus(resp) { // a 204 or 304 followed by a body: the body was the fault, not the JSON
		return surplusError(ep, resp)
	}
	if pe := protocolError(ep, resp.StatusCode, red, err); pe != nil {
		return pe
	}
	return malformed(ep, resp.StatusCode, red, describeDecodeError(err, hr.n), hr.head)
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

// unmarshalItem decodes one listing item. goccy/go-json, chosen by
// measurement on the recycle-bin payload (BENCHMARKS.md): it decodes an
// item about 2.5x faster than encoding/json, builds with a plain go build,
// and honours the UnmarshalJSON methods of Time, Int and AuditType.
func unmarshalItem(raw []byte, v any) error { return gojson.Unmarshal(raw, v) }

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
