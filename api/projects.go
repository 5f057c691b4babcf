package api

import (
	"context"
	"net/url"
	"strconv"
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
			s = pg.summary().after(s)
			if err := p.hand(ctx, epProjects, "projects", g, n, item); err != nil {
				return s, err
			}
			if page != nil {
				if err := page(); err != nil {
					return s, err
				}
			}
			if len(p.entries) == 0 || n >= int(pg.TotalPages) {
				return s.repeats(g), nil
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

// Project is a vault project or knowledge base from the workspace listing.
type Project struct {
	ID                     string   `json:"id"`
	Name                   string   `json:"name"`
	CreatedAt              Time     `json:"created_at"`
	UpdatedAt              Time     `json:"updated_at"`
	ProjectUpdatedAt       Time     `json:"project_updated_at"`
	CreatorEmail           string   `json:"creator_email"`
	FilesCount             Int      `json:"files_count"`
	QueryCount             Int      `json:"query_count"`
	SizeBytes              Int      `json:"size_bytes"`
	IsKnowledgeBaseProject bool     `json:"is_knowledge_base_project"`
	Sharing                *Sharing `json:"sharing,omitempty"`
}

// Sharing summarises who a project is shared with. The share lists are kept
// raw: the console shows counts, and their shape has changed between versions.
type Sharing struct {
	UserCount       Int     `json:"user_count"`
	WorkspaceCount  Int     `json:"workspace_count"`
	UserShares      RawJSON `json:"user_shares,omitempty"`
	WorkspaceShares RawJSON `json:"workspace_shares,omitempty"`
}

// PagePagination is page/per_page pagination (workspace projects).
type PagePagination struct {
	Page       Int `json:"page"`
	PerPage    Int `json:"per_page"`
	Total      Int `json:"total"`
	TotalPages Int `json:"total_pages"`
}

// ProjectPage is one page of the workspace project listing (the content of
// the response.content envelope).
type ProjectPage struct {
	Pagination PagePagination `json:"pagination"`
	Projects   []Project      `json:"projects"`
}
