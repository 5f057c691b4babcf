package api

import (
	"context"
	"errors"
	"iter"
	"strings"
)

// The iterators below page through a listing lazily. Each yields records
// one by one; on failure it yields (zero, err) once and stops. Every page
// request takes ctx, and the iterators check ctx between records, so
// cancelling stops them at once. Breaking out of the loop sends no further
// request.

// AllProjects iterates over every workspace project whose name contains
// name, 100 per page, until a page is empty or the last page is reached. A
// page that repeats an earlier one or lies past the listing's own total
// ends it with an error (PageGuard); a project is yielded once.
func (c *Client) AllProjects(ctx context.Context, name string) iter.Seq2[Project, error] {
	return func(yield func(Project, error) bool) {
		g := NewProjectPageGuard()
		for page := 1; ; page++ {
			if err := ctx.Err(); err != nil {
				yield(Project{}, canceled(epProjects, err))
				return
			}
			p, err := c.Projects(ctx, ProjectQuery{Page: page, PerPage: MaxPerPage, Name: name})
			if err == nil {
				err = g.Within(page, len(p.Projects), p.Pagination)
			}
			var fresh []Project
			if err == nil {
				fresh, err = Fresh(g, page, p.Projects, func(p *Project) string { return p.ID })
			}
			if err != nil {
				yield(Project{}, err)
				return
			}
			for _, pr := range fresh {
				if ctx.Err() != nil {
					yield(Project{}, canceled(epProjects, ctx.Err()))
					return
				}
				if !yield(pr, nil) {
					return
				}
			}
			if len(p.Projects) == 0 || page >= int(p.Pagination.TotalPages) {
				return
			}
		}
	}
}

// AllProjectFiles iterates over a project's files, following next_cursor
// until has_more is false or the cursor is missing. A cursor or a page that
// repeats ends it with an error (PageGuard); a file is yielded once.
func (c *Client) AllProjectFiles(ctx context.Context, projectID string, q FileQuery) iter.Seq2[ProjectFile, error] {
	return func(yield func(ProjectFile, error) bool) {
		if q.Limit == 0 {
			q.Limit = MaxFileLimit
		}
		g := NewFilePageGuard()
		for page := 1; ; page++ {
			if err := ctx.Err(); err != nil {
				yield(ProjectFile{}, canceled(epProjectFiles, err))
				return
			}
			p, err := c.ProjectFiles(ctx, projectID, q)
			var fresh []ProjectFile
			if err == nil {
				fresh, err = Fresh(g, page, p.Files, func(f *ProjectFile) string { return f.ID })
			}
			if err != nil {
				yield(ProjectFile{}, err)
				return
			}
			for _, f := range fresh {
				if ctx.Err() != nil {
					yield(ProjectFile{}, canceled(epProjectFiles, ctx.Err()))
					return
				}
				if !yield(f, nil) {
					return
				}
			}
			next := ""
			if p.Pagination.NextCursor != nil {
				next = *p.Pagination.NextCursor
			}
			if !p.Pagination.HasMore || next == "" {
				return
			}
			if err := g.Cursor(page, next); err != nil {
				yield(ProjectFile{}, err)
				return
			}
			q.Cursor = next
		}
	}
}

// AuditLog iterates over the audit log: the earliest entry (of logType, when
// given), then the entries after it, 1000 per page, until a page is empty or
// short. The listing has no type filter, so logType is applied here. An
// empty log yields nothing.
func (c *Client) AuditLog(ctx context.Context, logType string) iter.Seq2[AuditEntry, error] {
	return func(yield func(AuditEntry, error) bool) {
		first, err := c.AuditEarliest(ctx, logType)
		if errors.Is(err, KindNotFound) {
			return
		}
		if err != nil {
			yield(AuditEntry{}, err)
			return
		}
		if !yield(*first, nil) {
			return
		}
		from := first.ID
		for {
			if err := ctx.Err(); err != nil {
				yield(AuditEntry{}, canceled(epAuditList, err))
				return
			}
			page, err := c.AuditAfter(ctx, from, MaxAuditTake)
			if err != nil {
				yield(AuditEntry{}, err)
				return
			}
			for _, e := range page {
				if ctx.Err() != nil {
					yield(AuditEntry{}, canceled(epAuditList, ctx.Err()))
					return
				}
				if logType != "" && !strings.EqualFold(string(e.Type), logType) {
					continue
				}
				if !yield(e, nil) {
					return
				}
			}
			if len(page) < MaxAuditTake || page[len(page)-1].ID == from {
				return
			}
			from = page[len(page)-1].ID
		}
	}
}
