package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/jsonstream"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/redact"
)

// A listing that is one body (the recycle bin, the client matters, a page
// of the audit log) is walked as it arrives (jsonstream), each item handed
// on before the next is read; what goes wrong on the way is worded here,
// as an *Error naming the endpoint and the item.

// streamItems GETs path and walks its top-level object, handing each element
// of the array member arrayKey to item and every other member to other. An
// empty arrayKey walks a body that is a bare array (other is not called).
func (c *Client) streamItems(ctx context.Context, ep endpoint, path string, q url.Values, arrayKey string,
	item func(it RawItem) error, other func(key string, raw []byte) error) error {
	resp, red, err := c.send(ctx, call{ep: ep, path: path, query: q})
	if err != nil {
		return err
	}
	return c.walkBody(ctx, ep, resp, red, arrayKey, item, other)
}

// walkBody is streamItems after the response headers are in: it walks and
// closes resp's body, and words every way the body can fail as an *Error.
func (c *Client) walkBody(ctx context.Context, ep endpoint, resp *http.Response, red redact.Redactor, arrayKey string,
	item func(it RawItem) error, other func(key string, raw []byte) error) error {
	return c.walk(ctx, ep, resp, red, arrayKey, false, item, other)
}

// walk is walkBody; nullOK lets a bare body of null stand for no items,
// as a decode into a slice reads it (the audit listing, which read it so
// before it was walked), where an empty answer is no harm. An error of item
// wrapped in callerError comes back unwrapped; any other is the item
// refused, worded with its place in the body.
func (c *Client) walk(ctx context.Context, ep endpoint, resp *http.Response, red redact.Redactor, arrayKey string, nullOK bool,
	item func(it RawItem) error, other func(key string, raw []byte) error) error {
	defer resp.Body.Close()
	body, kept := tapBody(ctx, resp.Body) // WithBodyCopy (bodytap.go)
	hr := &headReader{r: body}
	sc := jsonstream.NewScanner(hr, jsonstream.Default)
	if gate := gateOf(resp.Request.Context()); gate != nil {
		gate.marked = true // only items are progress (jsonstream.Progress)
		sc.Progress = gate.counter()
	}
	if other == nil {
		other = func(string, []byte) error { return nil }
	}
	n, err := sc.Walk(arrayKey, nullOK, item, other)
	if err == nil {
		if err := answerEnded(ep, resp, red); err != nil {
			return err
		}
		kept()
		return nil
	}
	var ie *jsonstream.ItemError
	var se *jsonstream.SyntaxError
	var le *jsonstream.LimitError
	if errors.As(err, &ie) {
		if ce, ok := ie.Err.(callerError); ok {
			return ce.err
		}
	}
	switch {
	case errors.As(err, &le):
		where := fmt.Sprintf("item %d", n+1)
		if arrayKey != "" {
			where += fmt.Sprintf(" of %q", arrayKey)
		}
		return overLimit(ep, resp.StatusCode, le, where)
	case asTimeout(ep, err) != nil:
		return asTimeout(ep, err)
	case resp.Request.Context().Err() != nil:
		return canceled(ep, resp.Request.Context().Err())
	case surplus(resp):
		return surplusError(ep, resp)
	case protocolFault(err) != "":
		return protocolError(ep, resp.StatusCode, red, err)
	case errors.Is(err, jsonstream.ErrTruncated), errors.Is(err, io.ErrUnexpectedEOF):
		if hr.n == 0 {
			return malformed(ep, resp.StatusCode, red, "empty body where JSON was expected", nil)
		}
		return malformed(ep, resp.StatusCode, red, fmt.Sprintf("truncated JSON: the body ended after %s", plural.Count(hr.n, "byte")), hr.head)
	case ie != nil:
		where, cause := strings.TrimSpace(fmt.Sprintf("%s item %d", arrayKey, ie.N)), ie.Err
		if ie.N == 0 {
			where, cause = "a member beside "+arrayKey, fmt.Errorf("%q: %w", ie.Key, ie.Err)
		}
		return malformed(ep, resp.StatusCode, red, fmt.Sprintf("invalid JSON at byte %d (%s): %v", ie.Off, where, cause), hr.head)
	case errors.As(err, &se) && se.Item: // worded as a decoder's refusal of the item was
		where := strings.TrimSpace(fmt.Sprintf("%s item %d", arrayKey, n+1))
		return malformed(ep, resp.StatusCode, red, fmt.Sprintf("invalid JSON at byte %d (%s): expected %s, found %q", se.Off, where, se.Want, se.Got), hr.head)
	case errors.As(err, &se):
		return malformed(ep, resp.StatusCode, red, se.Error(), hr.head)
	default:
		return &Error{Kind: KindNetwork, Endpoint: ep.String(), Message: red.SafeText(err.Error(), 300)}
	}
}
