package api

import (
	"context"
	"encoding/json"
	"net/url"
)

// ProjectUser is a workspace user with active access to a project.
type ProjectUser struct {
	UserID      string `json:"user_id"`
	Email       string `json:"email"`
	Name        string `json:"name"`
	AccessLevel string `json:"access_level"`
}

// ProjectUsers is the project users response.
type ProjectUsers struct {
	Status string `json:"status"`
	Data   struct {
		ProjectID string        `json:"project_id"`
		Users     []ProjectUser `json:"users"`
	} `json:"data"`
}

// ProjectUsers lists the users with access to a project (GET
// /api/v1/vault/projects/{project_id}/users): one body, held whole
// (MaxBodyBytes) before any user is handed out, so a stalled body is sent
// again. It has no total.
func (c *Client) ProjectUsers(projectID string) Listing[ProjectUser] {
	read := func(ctx context.Context, item func(RawItem) error, page func() error) (Summary, error) {
		if err := requireID(epProjectUsers, "project ID", projectID); err != nil {
			return Summary{}, err
		}
		var body struct {
			Data struct {
				Users json.RawMessage `json:"users"`
			} `json:"data"`
		}
		path := "/api/v1/vault/projects/" + url.PathEscape(projectID) + "/users"
		if err := c.getJSON(ctx, epProjectUsers, path, nil, &body); err != nil {
			return Summary{}, err
		}
		var p rawPage
		if len(body.Data.Users) > 0 {
			noID := func([]byte) (string, error) { return "", nil }
			if err := p.scan(epProjectUsers, c.currentRedactor(), body.Data.Users, "", "users", noID, nil); err != nil {
				return Summary{}, err
			}
		}
		if err := p.hand(ctx, epProjectUsers, "users", nil, 1, item); err != nil {
			return Summary{}, err
		}
		if page != nil {
			return Summary{}, page()
		}
		return Summary{}, nil
	}
	return Listing[ProjectUser]{c: c, ep: epProjectUsers, read: read, held: Held{lim: c.held, ep: epProjectUsers}}
}
