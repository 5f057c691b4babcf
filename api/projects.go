package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// ProjectQuery selects projects of the workspace listing.
type ProjectQuery struct {
	Page    int    // ProjectsPage's page, 1-based; 0 -> 1 (the listing reads them all)
	PerPage int    // 1..100; 0 -> the listing's 100, ProjectsPage's server default (20)
	Name    string // case-insensitive substring
}

// MaxPerPage is the largest page the project listing serves.
const MaxPerPage = 100

const projectsPath = "/api/v1/vault/workspace/projects"

// Projects lists the workspace's projects whose name contains q.Name
// (GET /api/v1/vault/workspace/projects), q.PerPage a page (0: 100), every
// page from the first until one is empty or the last is reached. A page
// that repeats an earlier one or lies past the listing's own total ends it
// with an error (PageGuard); a project is handed out once. Summary.Total
// is the total the last page read stated. Requires View workspace
// projects.
func (c *Client) Projects(q ProjectQuery) Listing[Project] {
	per := MaxPerPage
	if q.PerPage > 0 {
		per = min(q.PerPage, MaxPerPage)
	}
	read := func(ctx context.Context, item func(RawItem) error, page func() error) (Summary, error) {
		g := NewProjectPageGuard()
		var p rawPage
		var s Summary
		for n := 1; ; n++ {
			v := url.Values{"page": {strconv.Itoa(n)}, "per_page": {strconv.Itoa(per)}}
			if q.Name != "" {
				v.Set("name", q.Name)
			}
			content, red, err := c.contentBytes(ctx, epProjects, projectsPath, v)
			if err != nil {
				return s, err
			}
			var pg numbered
			if err := p.scanPage(epProjects, red, content, "projects", &pg); err != nil {
				return s, err
			}
			if err := g.Within(n, len(p.entries), pg.pagination()); err != nil {
				return s, err
			}
			s = pg.summary()
			if err := p.hand(ctx, epProjects, "projects", g, n, item); err != nil {
				return s, err
			}
			if page != nil {
				if err := page(); err != nil {
					return s, err
				}
			}
			if len(p.entries) == 0 || n >= int(pg.TotalPages) {
				return s, nil
			}
		}
	}
	return Listing[Project]{c: c, ep: epProjects, read: read, held: Held{lim: c.held, ep: epProjects}}
}

// ProjectsPage returns one page of the workspace's projects, q.Page of
// q.PerPage: one request, for a reader that pages at its user's pace and
// guards its pages itself (the console's views, with a PageGuard and a
// Held of their own; the project lookup). A reader of the whole listing
// uses Projects.
func (c *Client) ProjectsPage(ctx context.Context, q ProjectQuery) (*ProjectPage, error) {
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
	if err := c.getContent(ctx, epProjects, projectsPath, v, &p); err != nil {
		return nil, err
	}
	return &p, nil
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
