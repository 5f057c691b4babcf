package api

import (
	"context"
	"net/url"
)

// RecycleBinQuery filters the recycle bin. The spec does not name the two
// parameters; these are the names of the sibling endpoints (facts §4.2).
type RecycleBinQuery struct {
	Name           string // case-insensitive substring of the project name
	ClientMatterID string // client matter UUID (not the matter number)
}

// RecycleBin lists deleted projects awaiting purge
// (GET /api/v1/vault/workspace/recycle_bin), newest deletion first.
func (c *Client) RecycleBin(ctx context.Context, q RecycleBinQuery) (*RecycleBin, error) {
	v := url.Values{}
	if q.Name != "" {
		v.Set("name", q.Name)
	}
	if q.ClientMatterID != "" {
		v.Set("client_matter_id", q.ClientMatterID)
	}
	var rb RecycleBin
	if err := c.getJSON(ctx, epRecycleBin, "/api/v1/vault/workspace/recycle_bin", v, &rb); err != nil {
		return nil, err
	}
	if rb.Items == nil {
		rb.Items = []RecycleBinEntry{} // --json prints [] rather than null
	}
	return &rb, nil
}
