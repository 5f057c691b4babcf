package api

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"time"
)

// FileDetail is one element of get_files: either details or, when Error is
// set (observed: "not_found"), a failure for that ID.
type FileDetail struct {
	FileID           string `json:"file_id"`
	FileName         string `json:"file_name,omitempty"`
	ProcessingStatus Status `json:"processing_status,omitempty"`
	ContentType      string `json:"content_type,omitempty"`
	DeletedAt        *Time  `json:"deleted_at,omitempty"`
	Error            string `json:"error,omitempty"`
}

// Failed reports whether the record is a per-ID failure rather than details.
func (f FileDetail) Failed() bool { return f.Error != "" }

// Superseded reports whether the detail says a later upload of the file's
// name replaced it: deleted_at is set on an answer that is not a per-file
// error. The one reading of deleted_at: api/filestatus classifies such a
// file as replaced, api/upload records and reports it so.
func (f FileDetail) Superseded() bool { return !f.Failed() && f.DeletedAt != nil }

// SupersededAt is when the detail says the file was deleted (deleted_at).
// Zero when it is live. A deleted_at the client cannot read still counts:
// the file is not live, whatever the time.
func (f FileDetail) SupersededAt() time.Time {
	if f.DeletedAt == nil {
		return time.Time{}
	}
	if t := f.DeletedAt.Time; !t.IsZero() {
		return t
	}
	return time.UnixMilli(1)
}

// NotReturned is the Error of a FileDetail the client made up for an ID the
// server's answer left out (it should never happen; the spec promises one
// element per ID).
const NotReturned = "not_returned"

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
