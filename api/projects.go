package api

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// ProjectQuery selects one page of the workspace project listing.
type ProjectQuery struct {
	Page    int    // 1-based; 0 -> 1
	PerPage int    // 1..100; 0 -> the server default (20)
	Name    string // case-insensitive substring
}

// MaxPerPage is the largest page the project listing serves.
const MaxPerPage = 100

// Projects returns one page of the workspace's projects
// (GET /api/v1/vault/workspace/projects). Requires View workspace projects.
func (c *Client) Projects(ctx context.Context, q ProjectQuery) (*ProjectPage, error) {
	v := url.Values{}
	if q.Page > 0 {
		v.Set("page", strconv.Itoa(q.Page))
	}
	if q.PerPage > 0 {
		v.Set("per_page", strconv.Itoa(min(q.PerPage, MaxPerPage)))
	}
	if q.Name != "" {
		v.Set("name", q.Name)
	}
	var p ProjectPage
	if err := c.getContent(ctx, epProjects, "/api/v1/vault/workspace/projects", v, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// ProjectUsers lists users with access to a project
// (GET /api/v1/vault/projects/{project_id}/users).
func (c *Client) ProjectUsers(ctx context.Context, projectID string) (*ProjectUsers, error) {
	if err := requireID(epProjectUsers, "project ID", projectID); err != nil {
		return nil, err
	}
	var u ProjectUsers
	path := "/api/v1/vault/projects/" + url.PathEscape(projectID) + "/users"
	if err := c.getJSON(ctx, epProjectUsers, path, nil, &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// DeleteProject asks for a project's deletion
// (DELETE /api/v1/vault/delete_project/{project_id}). The refused (example
// project) and partial-failure bodies are results, not errors: check
// Outcome(). It is never repeated automatically.
func (c *Client) DeleteProject(ctx context.Context, projectID string) (*DeleteProjectResult, error) {
	ep := epDeleteProject
	if err := requireID(ep, "project ID", projectID); err != nil {
		return nil, err
	}
	resp, red, err := c.send(ctx, call{ep: ep, path: "/api/v1/vault/delete_project/" + url.PathEscape(projectID),
		keep: []int{http.StatusForbidden, http.StatusConflict}})
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 == 2 || resp.StatusCode == http.StatusConflict {
		var r DeleteProjectResult
		if err := c.decodeJSON(resp, ep, red, &r); err != nil {
			return nil, err
		}
		if resp.StatusCode == http.StatusConflict && r.Details == nil {
			r.Details = &DeleteProjectDetails{} // a 409 is a partial failure even without counts
		}
		r.Error = red.String(r.Error)
		r.Message = red.String(r.Message)
		return &r, nil
	}
	// 403 is either the documented refusal of example projects or a missing
	// permission; only the body tells them apart.
	body := readErrorBody(resp)
	msg := serverMessage(body, red)
	if strings.Contains(strings.ToLower(msg), "example") {
		return &DeleteProjectResult{Error: red.String(msg)}, nil
	}
	e := c.statusError(ep, resp.StatusCode, body, red)
	c.refineForbidden(ctx, ep, e)
	return nil, e
}

func requireID(ep endpoint, what, id string) error {
	if strings.TrimSpace(id) == "" {
		return &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: "a " + what + " is required"}
	}
	return nil
}
