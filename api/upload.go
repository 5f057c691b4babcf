package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"path"
	"strings"

	"github.com/dustin/go-humanize"
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
	switch mode {
	case DuplicateSkip, DuplicateReplace, DuplicateKeep:
	default:
		return nil, &Error{Kind: KindInvalidRequest, Endpoint: ep.String(),
			Message: fmt.Sprintf("duplicate mode %q is not one of skip, replace, keep", mode)}
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
		r, err := c.uploadBatch(ctx, projectID, files[start:end], mode)
		if err != nil {
			if start > 0 {
				return out, fmt.Errorf("files %d to %d of %d were not uploaded (the first %d were): %w", start+1, len(files), len(files), start, err)
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

func tooLarge(ep endpoint, name string, size int64) *Error {
	return &Error{Kind: KindTooLarge, Endpoint: ep.String(), Message: fmt.Sprintf(
		"file %q is %s, over the %s per-file limit; nothing was uploaded. Split or compress it",
		clean(name), humanize.Comma(size)+" bytes", humanize.Comma(MaxFileBytes)+" bytes")}
}

// uploadAborted is how the client stops the body writer once the transport
// no longer needs the body (the server answered early, or ctx ended).
type uploadAborted struct{}

func (uploadAborted) Error() string { return "upload body no longer needed" }

func (c *Client) uploadBatch(ctx context.Context, projectID string, files []UploadFile, mode DuplicateMode) (*UploadResult, error) {
	ep := epUpload
	body := func() (io.ReadCloser, string, func() error, error) {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		done := make(chan error, 1)
		go func() { done <- writeMultipart(ep, mw, pw, files, mode) }()
		finish := func() error {
			pr.CloseWithError(uploadAborted{})
			err := <-done
			if errors.As(err, new(uploadAborted)) || errors.Is(err, io.ErrClosedPipe) {
				return nil
			}
			return err
		}
		return pr, mw.FormDataContentType(), finish, nil
	}
	resp, red, err := c.send(ctx, call{ep: ep, path: "/api/v1/vault/upload_files/" + url.PathEscape(projectID), body: body})
	if err != nil {
		return nil, err
	}
	var r UploadResult
	if err := c.decodeJSON(resp, ep, red, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// writeMultipart streams the form: duplicate_mode first, then one
// file_paths value and one files part per file, in the same order.
func writeMultipart(ep endpoint, mw *multipart.Writer, pw *io.PipeWriter, files []UploadFile, mode DuplicateMode) (err error) {
	defer func() { pw.CloseWithError(err) }()
	if err := mw.WriteField("duplicate_mode", string(mode)); err != nil {
		return err
	}
	for _, f := range files {
		p := f.Path
		if p == "" {
			p = f.Name
		}
		if err := mw.WriteField("file_paths", p); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := writeFilePart(ep, mw, f); err != nil {
			return err
		}
	}
	return mw.Close()
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

func writeFilePart(ep endpoint, mw *multipart.Writer, f UploadFile) error {
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files"; filename="%s"`, quoteEscaper.Replace(f.Name)))
	ct := mime.TypeByExtension(strings.ToLower(path.Ext(f.Name)))
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	part, err := mw.CreatePart(h)
	if err != nil {
		return err
	}
	rc, err := f.Open()
	if err != nil {
		return &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: fmt.Sprintf("cannot open %q: %v; nothing more was sent", clean(f.Name), err)}
	}
	defer rc.Close()
	// The declared size may be stale (the file grew): count while copying
	// and stop at the limit rather than send a file the server will refuse.
	n, err := io.Copy(part, io.LimitReader(rc, MaxFileBytes+1))
	if err != nil {
		return err
	}
	if n > MaxFileBytes {
		return tooLarge(ep, f.Name, n)
	}
	return nil
}
