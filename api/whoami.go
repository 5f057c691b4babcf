package api

import (
	"context"
	"net/url"
)

// getJSON sends a GET and decodes a bare JSON body into v.
func (c *Client) getJSON(ctx context.Context, ep endpoint, path string, q url.Values, v any) error {
	resp, red, err := c.send(ctx, call{ep: ep, path: path, query: q})
	if err != nil {
		return err
	}
	return c.decodeJSON(resp, ep, red, v)
}

// getContent sends a GET and decodes a {"response":{"content":...}} body.
func (c *Client) getContent(ctx context.Context, ep endpoint, path string, q url.Values, v any) error {
	resp, red, err := c.send(ctx, call{ep: ep, path: path, query: q})
	if err != nil {
		return err
	}
	return c.decodeContent(resp, ep, red, v)
}

// WhoAmI returns the account behind the token (GET /api/whoami). It is the
// cheapest way to test a token: it costs no rate-limited budget.
func (c *Client) WhoAmI(ctx context.Context) (*WhoAmI, error) {
	var w WhoAmI
	if err := c.getJSON(ctx, epWhoAmI, "/api/whoami", nil, &w); err != nil {
		return nil, err
	}
	return &w, nil
}
