package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
)

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

// resending runs one idempotent request and decode again when its body
// stalled: send retries what fails before the body, this what fails in it.
// Only for decodes that hand nothing to the caller before they finish.
func (c *Client) resending(ctx context.Context, ep endpoint, once func() error) error {
	bo := newBackoff()
	for n := 0; ; n++ {
		err := once()
		var te *Error
		if err == nil || !ep.idempotent || n >= maxTimeoutRetries || !errors.As(err, &te) || te.Kind != KindTimeout || te.Received < 0 || te.Total {
			return err
		}
		wait := min(bo.NextBackOff(), maxBackoff)
		c.observeWait(ctx, Wait{Endpoint: ep.String(), Reason: WaitBackoff, For: wait})
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return canceled(ep, err)
		}
	}
}

// WhoAmI returns the account behind the token (GET /api/whoami). It is the
// cheapest way to test a token: it costs no rate-limited budget.
func (c *Client) WhoAmI(ctx context.Context) (*WhoAmI, error) {
	var raw json.RawMessage
	if err := c.getJSON(ctx, epWhoAmI, "/api/whoami", nil, &raw); err != nil {
		return nil, err
	}
	var w WhoAmI
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, malformed(epWhoAmI, 200, c.currentRedactor(), describeDecodeError(err, int64(len(raw))), headOf(raw))
	}
	w.Raw = raw
	return &w, nil
}
