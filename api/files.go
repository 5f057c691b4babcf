package api

import (
	"context"
	"net/url"
	"strconv"
	"strings"
)

// FileQuery selects files of a project's listing.
type FileQuery struct {
	Cursor   string   // where to start: a page's next_cursor; "" for the first
	Limit    int      // files a page, 1..100; 0 -> the listing's 100, ProjectFilesPage's server default (20)
	Name     string   // case-insensitive substring
	Statuses []string // processing_status filter, any case
}

// ProjectFiles lists a project's files (GET
// /api/v1/vault/projects/{project_id}/files), q.Limit a page (0: 100),
// from q.Cursor, following next_cursor until has_more is false or the
// cursor is missing. A cursor or a page that repeats ends it with an error
// (PageGuard); a file is handed out once. Summary.Total is the total_count
// the last page read stated.
func (c *Client) ProjectFiles(projectID string, q FileQuery) Listing[ProjectFile] {
	if q.Limit == 0 {
		q.Limit = MaxFileLimit
	}
	read := func(ctx context.Context, item func(RawItem) error, page func() error) (Summary, error) {
		if err := requireID(epProjectFiles, "project ID", projectID); err != nil {
			return Summary{}, err
		}
		path := filesPath(projectID)
		g := NewFilePageGuard()
		var p rawPage
		var s Summary
		for n, q := 1, q; ; n++ {
			content, red, err := c.contentBytes(ctx, epProjectFiles, path, fileValues(q))
			if err != nil {
				return s, err
			}
			var pg cursored
			if err := p.scanPage(epProjectFiles, red, content, "files", &pg); err != nil {
				return s, err
			}
			s = pg.summary().after(s)
			if err := p.hand(ctx, epProjectFiles, "files", g, n, item); err != nil {
				return s, err
			}
			if page != nil {
				if err := page(); err != nil {
					return s, err
				}
			}
			next := pg.next()
			if next == "" {
				return s.repeats(g), nil
			}
			if err := g.Cursor(n, next); err != nil {
				return s, err
			}
			q.Cursor = next
		}
	}
	return Listing[ProjectFile]{c: c, ep: epProjectFiles, read: read, held: Held{lim: c.held, ep: epProjectFiles}}
}

// ProjectFilesPage returns one page of a project's files, from q.Cursor:
// one request, for a reader that pages at its user's pace and guards its
// pages itself (the console's files tab). A reader of the whole listing
// uses ProjectFiles.
func (c *Client) ProjectFilesPage(ctx context.Context, projectID string, q FileQuery) (*FilePage, error) {
	if err := requireID(epProjectFiles, "project ID", projectID); err != nil {
		return nil, err
	}
	v := fileValues(q)
	if q.Limit <= 0 {
		v.Del("limit")
	}
	var p FilePage
	if err := c.getContent(ctx, epProjectFiles, filesPath(projectID), v, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func filesPath(projectID string) string {
	return "/api/v1/vault/projects/" + url.PathEscape(projectID) + "/files"
}

// fileValues is the query of one page of a project's files.
func fileValues(q FileQuery) url.Values {
	v := url.Values{"limit": {strconv.Itoa(min(q.Limit, MaxFileLimit))}}
	if q.Cursor != "" {
		v.Set("cursor", q.Cursor)
	}
	if q.Name != "" {
		v.Set("name", q.Name)
	}
	for _, s := range q.Statuses {
		// The listing speaks upper case; the server compares
		// case-insensitively, but do not depend on it.
		if s = strings.TrimSpace(s); s != "" {
			v.Add("processing_status", strings.ToUpper(s))
		}
	}
	return v
}

// Status is a processing status. The service sends it lowercase in get_files
// and uppercase in project file listings, so comparisons ignore case.
type Status string

// Known processing statuses (canonical upper case, as in project listings).
const (
	StatusUploaded             Status = "UPLOADED"
	StatusProcessing           Status = "PROCESSING"
	StatusReadyToQuery         Status = "READY_TO_QUERY"
	StatusReadyToReview        Status = "READY_TO_REVIEW"
	StatusRecoverableFailure   Status = "RECOVERABLE_FAILURE"
	StatusUnrecoverableFailure Status = "UNRECOVERABLE_FAILURE"
)

// Is compares two statuses case-insensitively.
func (s Status) Is(other Status) bool { return strings.EqualFold(string(s), string(other)) }

// Terminal reports whether a file in this status will not change on its own.
// Unknown values count as terminal: polling forever on a status we do not
// understand would burn the vault budget for nothing.
func (s Status) Terminal() bool {
	return !(s.Is(StatusUploaded) || s.Is(StatusProcessing) || s.Is(StatusRecoverableFailure))
}

// ProjectFile is one file of a project listing.
type ProjectFile struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	ContentType      string `json:"content_type"`
	ProcessingStatus Status `json:"processing_status"`
	Size             Int    `json:"size"`
	UploadedAt       Time   `json:"uploaded_at"`
}

// CursorPagination is opaque-cursor pagination (project files).
type CursorPagination struct {
	PageSize   Int     `json:"page_size"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
	TotalCount Int     `json:"total_count"`
}

// FilePage is one page of a project's files (the content of the envelope).
type FilePage struct {
	Files      []ProjectFile    `json:"files"`
	Pagination CursorPagination `json:"pagination"`
}
