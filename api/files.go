package api

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// Limits the spec states for one request.
const (
	MaxFileIDs        = 1000        // file IDs per get_files call
	MaxPairs          = 10_000      // matter pairs per request
	MaxFilesPerUpload = 50          // files per upload request
	MaxFileBytes      = 500_000_000 // bytes per uploaded file
	MaxFileLimit      = 100         // files per project-files page
)

// NotReturned is the Error of a FileDetail the client made up for an ID the
// server's answer left out (it should never happen; the spec promises one
// element per ID).
const NotReturned = "not_returned"

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
			s = pg.summary()
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
				return s, nil
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

// GetFiles returns details and processing status for file IDs
// (GET /api/v1/vault/get_files), each record beside the server's own JSON
// for it (a record the server left out, made up here, is marshalled). More
// than 1000 distinct IDs are split into several calls; the result has one
// record per input ID, in input order (duplicates repeated, blanks
// skipped). An unknown ID is a record with Error "not_found", not an error.
// It is no listing: the caller names what it asks for, and the answer is
// ordered and completed before any of it is handed back.
func (c *Client) GetFiles(ctx context.Context, ids []string) ([]Item[FileDetail], error) {
	wanted := make([]string, 0, len(ids))
	unique := make([]string, 0, len(ids))
	seen := make(map[string]struct{}, len(ids))
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		wanted = append(wanted, id)
		k := strings.ToLower(id)
		if _, dup := seen[k]; !dup {
			seen[k] = struct{}{}
			unique = append(unique, id)
		}
	}
	got := make(map[string]Item[FileDetail], len(unique))
	for start := 0; start < len(unique); start += MaxFileIDs {
		chunk := unique[start:min(start+MaxFileIDs, len(unique))]
		var raws []json.RawMessage
		v := url.Values{"file_ids": {strings.Join(chunk, ",")}}
		if err := c.getContent(ctx, epGetFiles, "/api/v1/vault/get_files", v, &raws); err != nil {
			return nil, err
		}
		recs, err := decodeItems[FileDetail](epGetFiles, "content", raws)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			k := strings.ToLower(r.Value.FileID)
			if _, ok := got[k]; !ok {
				got[k] = r
			}
		}
	}
	out := make([]Item[FileDetail], len(wanted))
	for i, id := range wanted {
		r, ok := got[strings.ToLower(id)]
		if !ok {
			r.Value = FileDetail{FileID: id, Error: NotReturned}
			r.JSON, _ = json.Marshal(r.Value)
		}
		out[i] = r
	}
	return out, nil
}
