package api

import (
	"context"
	"net/url"
)

// EachProjectFilePageRaw is EachProjectFilePage for output that writes
// each file's own bytes (see pages_raw.go): fn gets a page's items (valid
// only during the call), of each only the ID decoded, with the same
// paging checks (PageGuard: a repeated page or cursor ends it).
func (c *Client) EachProjectFilePageRaw(ctx context.Context, projectID string, q FileQuery, fn func([]RawItem) error) error {
	if err := requireID(epProjectFiles, "project ID", projectID); err != nil {
		return err
	}
	if q.Limit == 0 {
		q.Limit = MaxFileLimit
	}
	path := "/api/v1/vault/projects/" + url.PathEscape(projectID) + "/files"
	g := NewFilePageGuard()
	var p rawPage
	for page := 1; ; page++ {
		content, red, err := c.contentBytes(ctx, epProjectFiles, path, fileValues(q))
		if err != nil {
			return err
		}
		var pg CursorPagination
		if err := p.walk(epProjectFiles, red, content, "files", &pg, g, page, nil, fn); err != nil {
			return err
		}
		next := ""
		if pg.NextCursor != nil {
			next = *pg.NextCursor
		}
		if !pg.HasMore || next == "" {
			return nil
		}
		if err := g.Cursor(page, next); err != nil {
			return err
		}
		q.Cursor = next
	}
}
