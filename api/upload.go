package api

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/redact"
)

// DuplicateMode says what an upload does when a file of the same name exists.
type DuplicateMode string

// The documented modes. The client always sends one: the service documents
// no default.
const (
	DuplicateSkip    DuplicateMode = "skip"
	DuplicateReplace DuplicateMode = "replace"
	DuplicateKeep    DuplicateMode = "keep"
)

// UploadFile is one file to upload. Open is called once, when its bytes are
// about to be sent, and the file is streamed, never held in memory.
type UploadFile struct {
	Name string // file name sent in the part
	Path string // file_paths value (desired folder path); "" -> Name
	Size int64  // bytes; checked against the limit before anything is sent
	Open func() (io.ReadCloser, error)
}

// MaxUploadBatchBytes caps one request's total size: the service warns that
// many large files in one request risk HTTPS timeouts.
const MaxUploadBatchBytes = 2_000_000_000

// Upload sends files to a project (POST /api/v1/vault/upload_files/{id}).
// It refuses, before sending any byte, a file over 500,000,000 bytes (naming
// it), and splits more than 50 files (or over 2 GB) into several requests,
// merging the file IDs in order. It never repeats a request. When a later
// batch fails, the result so far is returned with the error.
func (c *Client) Upload(ctx context.Context, projectID string, files []UploadFile, mode DuplicateMode) (*UploadResult, error) {
	ep := epUpload
	if err := requireID(ep, "project ID", projectID); err != nil {
		return nil, err
	}
	if mode == "" {
		mode = DuplicateSkip
	}
	if err := checkMode(ep, mode); err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Open == nil || f.Name == "" {
			return nil, &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: fmt.Sprintf("file %q has no name or no way to open it", f.Name)}
		}
		if f.Size > MaxFileBytes {
			return nil, tooLarge(ep, f.Name, f.Size)
		}
	}
	out := &UploadResult{ProjectID: projectID, FileIDs: []string{}}
	for start := 0; start < len(files); {
		end, total := start, int64(0)
		for end < len(files) && end-start < MaxFilesPerUpload && (end == start || total+files[end].Size <= MaxUploadBatchBytes) {
			total += files[end].Size
			end++
		}
		r, err := c.uploadBatch(ctx, projectID, files[start:end], mode, nil)
		if err != nil {
			if start > 0 {
				return out, fmt.Errorf("files %d to %d of %d %s not uploaded (the first %d %s): %w", start+1, len(files), len(files),
					plural.Verb(len(files)-start, "was", "were"), start, plural.Verb(start, "was", "were"), err)
			}
			return out, err
		}
		if r.ProjectID != "" {
			out.ProjectID = r.ProjectID
		}
		out.FileIDs = append(out.FileIDs, r.FileIDs...)
		start = end
	}
	return out, nil
}

// checkMode refuses a duplicate mode the service does not know, before
// anything is sent.
func checkMode(ep endpoint, mode DuplicateMode) error {
	switch mode {
	case DuplicateSkip, DuplicateReplace, DuplicateKeep:
		return nil
	}
	return &Error{Kind: KindInvalidRequest, Endpoint: ep.String(),
		Message: fmt.Sprintf("duplicate mode %q is not one of skip, replace, keep", mode)}
}

func tooLarge(ep endpoint, name string, size int64) *Error {
	return &Error{Kind: KindTooLarge, Endpoint: ep.String(), Message: fmt.Sprintf(
		"file %q is %s; nothing was uploaded. Split or compress it", redact.Clean(name), OverFileLimit(size))}
}

// OverFileLimit says how far a file is over the per-file limit, in the
// units the product writes sizes in everywhere else (humanize.Bytes:
// "629 MB, over the 500 MB per-file limit"). When the rounded sizes look
// alike, the exact byte count is added, so the message never reads as
// "500 MB, over the 500 MB limit" with nothing to tell them apart.
func OverFileLimit(size int64) string {
	s, limit := humanize.Bytes(uint64(max(size, 0))), humanize.Bytes(MaxFileBytes)
	if s == limit {
		s += " (" + humanize.Comma(size) + " bytes)"
	}
	return s + ", over the " + limit + " per-file limit"
}

// UploadBatch sends files in exactly one request, whatever their number or
// size (the caller has batched them), and never repeats it. The body is
// streamed from each file's Open with an exact Content-Length, so memory
// stays flat and the server knows the size up front. sent, when not nil, is
// called with the number of file bytes handed to the transport so far (from
// the transport's goroutine).
func (c *Client) UploadBatch(ctx context.Context, projectID string, files []UploadFile, mode DuplicateMode, sent func(int64)) (*UploadResult, error) {
	ep := epUpload
	if err := requireID(ep, "project ID", projectID); err != nil {
		return nil, err
	}
	if err := checkMode(ep, mode); err != nil {
		return nil, err
	}
	if len(files) == 0 || len(files) > MaxFilesPerUpload {
		return nil, &Error{Kind: KindInvalidRequest, Endpoint: ep.String(),
			Message: fmt.Sprintf("a request carries 1 to %s, not %d", plural.Count(MaxFilesPerUpload, "file"), len(files))}
	}
	for _, f := range files {
		if f.Open == nil || f.Name == "" || f.Size < 0 {
			return nil, &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: fmt.Sprintf("file %q has no name, size or way to open it", redact.Clean(f.Name))}
		}
		if f.Size > MaxFileBytes {
			return nil, tooLarge(ep, f.Name, f.Size)
		}
	}
	return c.uploadBatch(ctx, projectID, files, mode, sent)
}

func (c *Client) uploadBatch(ctx context.Context, projectID string, files []UploadFile, mode DuplicateMode, sent func(int64)) (*UploadResult, error) {
	ep := epUpload
	segs, ctype, length, err := multipartFrame(files, mode)
	if err != nil {
		return nil, &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: err.Error()}
	}
	body := func() (io.ReadCloser, string, func() error, error) {
		b := &uploadBody{ep: ep, segs: segs, sent: sent}
		return b, ctype, b.finish, nil
	}
	resp, red, err := c.send(ctx, call{ep: ep, path: "/api/v1/vault/upload_files/" + url.PathEscape(projectID), body: body, length: length})
	if err != nil {
		return nil, err
	}
	var r UploadResult
	if err := c.decodeJSON(resp, ep, red, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// FilesUploadedSince returns a project's files uploaded at or after since
// (the listing's own upload time, whole seconds), newest first. It asks the
// listing for newest first and stops at the first older file; if the
// service turns out to ignore that order, it reads every page instead, so a
// file is never missed. Resuming an upload uses it to find which files of
// an interrupted request arrived.
func (c *Client) FilesUploadedSince(ctx context.Context, projectID string, since time.Time) ([]ProjectFile, error) {
	ep := epProjectFiles
	if err := requireID(ep, "project ID", projectID); err != nil {
		return nil, err
	}
	floor := since.Truncate(time.Second)
	path := "/api/v1/vault/projects/" + url.PathEscape(projectID) + "/files"
	q := url.Values{"limit": {fmt.Sprint(MaxFileLimit)}, "sort_by": {"uploaded_at"}, "sort_order": {"desc"}}
	var out []ProjectFile
	descending := true
	var prev time.Time
	g := NewFilePageGuard() // a listing that repeats itself ends, as every paged read does
	for page := 1; ; page++ {
		var p FilePage
		if err := c.getContent(ctx, ep, path, q, &p); err != nil {
			return nil, err
		}
		files, err := Fresh(g, page, p.Files, func(f *ProjectFile) string { return f.ID })
		if err != nil {
			return nil, err
		}
		older := false
		for _, f := range files {
			t := f.UploadedAt.Time
			if !prev.IsZero() && t.After(prev) {
				descending = false
			}
			prev = t
			if t.Before(floor) {
				older = true
				continue
			}
			out = append(out, f)
		}
		next := ""
		if p.Pagination.NextCursor != nil {
			next = *p.Pagination.NextCursor
		}
		if (older && descending) || !p.Pagination.HasMore || next == "" {
			return out, nil
		}
		if err := g.Cursor(page, next); err != nil {
			return nil, err
		}
		q.Set("cursor", next)
	}
}

// UploadResult is the upload_files response.
type UploadResult struct {
	ProjectID string   `json:"project_id"`
	FileIDs   []string `json:"file_ids"`
	// Errors is an "errors" member beside them, which the interface does
	// not describe: a 200 that also says something failed. Kept as sent,
	// so that the job reads no ID of such an answer in order (Faults).
	Errors RawJSON `json:"errors,omitempty"`
}

// Faults is the answer's "errors" member when it says anything (not
// absent, null, empty or false), as sent; "" otherwise.
func (r *UploadResult) Faults() string {
	switch strings.TrimSpace(string(r.Errors)) {
	case "", "null", "[]", "{}", `""`, "false":
		return ""
	}
	return string(r.Errors)
}
