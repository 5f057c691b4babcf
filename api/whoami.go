package api

import (
	"context"
	"encoding/json"
)

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

// WhoAmI describes the account behind a token. Production does not document
// the shape, so every field is optional.
type WhoAmI struct {
	UserID        string   `json:"user_id,omitempty"`
	Email         string   `json:"email,omitempty"`
	Name          string   `json:"name,omitempty"`
	WorkspaceID   string   `json:"workspace_id,omitempty"`
	WorkspaceName string   `json:"workspace_name,omitempty"`
	TokenName     string   `json:"token_name,omitempty"`
	Permissions   []string `json:"permissions,omitempty"`
	// Raw is the body as the server sent it (--json prints it).
	Raw json.RawMessage `json:"-"`
}
