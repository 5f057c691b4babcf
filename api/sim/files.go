package sim

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Processing statuses (UPPERCASE as the file listing shows them).
const (
	StatusUploaded             = "UPLOADED"
	StatusProcessing           = "PROCESSING"
	StatusReadyToQuery         = "READY_TO_QUERY"
	StatusReadyToReview        = "READY_TO_REVIEW"
	StatusRecoverableFailure   = "RECOVERABLE_FAILURE"
	StatusUnrecoverableFailure = "UNRECOVERABLE_FAILURE"
)

var allStatuses = []string{StatusUploaded, StatusProcessing, StatusReadyToQuery,
	StatusReadyToReview, StatusRecoverableFailure, StatusUnrecoverableFailure}

// status is computed on read: a PROCESSING file with a ReadyAt in the past
// is READY_TO_QUERY. Nothing runs in the background, so the sim clock alone
// decides and tests are deterministic.
func (f *file) status(now time.Time) string {
	if f.Status == StatusProcessing && !f.ReadyAt.IsZero() && !now.Before(f.ReadyAt) {
		return StatusReadyToQuery
	}
	return f.Status
}

// stuck decides, from a hash of the file id, whether a new upload belongs to
// the share that never finishes processing.
func stuck(id string, share float64) bool {
	if share <= 0 {
		return false
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return float64(h.Sum64()%10000)/10000 < share
}

type fileJSON struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	ContentType      string `json:"content_type"`
	ProcessingStatus string `json:"processing_status"`
	Size             int64  `json:"size"`
	UploadedAt       int64  `json:"uploaded_at"`
}

// handleListFiles serves GET /api/v1/vault/projects/{id}/files. Default
// order is upload order (oldest first); sort_by=name|uploaded_at|size and
// sort_order=asc|desc are honoured with the file id as tiebreaker. The
// cursor is an opaque base64 offset into the filtered, ordered list.
func (s *Server) handleListFiles(w http.ResponseWriter, r *http.Request, tok *Token) {
	q := r.URL.Query()
	limit, ok := intParam(r, "limit", 20, 1, 100)
	if !ok {
		writeError(w, http.StatusBadRequest, "limit must be between 1 and 100")
		return
	}
	offset := 0
	if c := q.Get("cursor"); c != "" {
		b, err := base64.RawURLEncoding.DecodeString(c)
		n, err2 := strconv.Atoi(strings.TrimPrefix(string(b), "o:"))
		if err != nil || err2 != nil || n < 0 || !strings.HasPrefix(string(b), "o:") {
			writeError(w, http.StatusBadRequest, "Invalid cursor")
			return
		}
		offset = n
	}
	var want []string
	for _, v := range q["processing_status"] {
		v = strings.ToUpper(strings.TrimSpace(v))
		if !slices.Contains(allStatuses, v) {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("Unknown processing_status %q", v))
			return
		}
		want = append(want, v)
	}
	name := strings.ToLower(q.Get("name"))
	sortBy, order := strings.ToLower(q.Get("sort_by")), strings.ToLower(q.Get("sort_order"))

	now := s.lock()
	defer s.mu.Unlock()
	p := s.st.liveProject(r.PathValue("id"))
	if p == nil {
		writeError(w, http.StatusNotFound, "Project not found")
		return
	}
	var list []*file
	for _, f := range p.Files {
		if !f.DeletedAt.IsZero() {
			continue
		}
		if name != "" && !strings.Contains(strings.ToLower(f.Name), name) {
			continue
		}
		if len(want) > 0 && !slices.Contains(want, f.status(now)) {
			continue
		}
		list = append(list, f)
	}
	if sortBy != "" || order == "desc" {
		sortFiles(list, sortBy, order == "desc")
	}
	out := []fileJSON{}
	for i := offset; i < len(list) && i < offset+limit; i++ {
		f := list[i]
		out = append(out, fileJSON{f.ID, f.Name, f.ContentType, f.status(now), f.Size, f.UploadedAt.Unix()})
	}
	var next *string
	hasMore := offset+limit < len(list)
	if hasMore {
		c := base64.RawURLEncoding.EncodeToString([]byte("o:" + strconv.Itoa(offset+limit)))
		next = &c
	}
	writeJSON(w, http.StatusOK, map[string]any{"response": map[string]any{"content": map[string]any{
		"files": out,
		"pagination": map[string]any{"page_size": len(out), "has_more": hasMore,
			"next_cursor": next, "total_count": len(list)},
	}}})
}

func sortFiles(list []*file, by string, desc bool) {
	slices.SortStableFunc(list, func(a, b *file) int {
		var c int
		switch by {
		case "name":
			c = strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		case "size":
			c = cmp.Compare(a.Size, b.Size)
		default:
			c = cmp.Compare(a.Seq, b.Seq)
		}
		if c == 0 {
			c = strings.Compare(a.ID, b.ID)
		}
		if desc {
			c = -c
		}
		return c
	})
}

// detailJSON has deleted_at always present (null or a timestamp) for found
// files, which omitempty on a pointer would drop; hence two shapes.
type detailJSON struct {
	FileID           string  `json:"file_id"`
	FileName         string  `json:"file_name"`
	ProcessingStatus string  `json:"processing_status"`
	ContentType      string  `json:"content_type"`
	DeletedAt        *string `json:"deleted_at"`
}

type notFoundJSON struct {
	FileID string `json:"file_id"`
	Error  string `json:"error"`
}

// handleGetFiles serves GET /api/v1/vault/get_files?file_ids=a,b,c. Files of
// projects that were deleted count as not accessible (not_found); files
// superseded by a replace upload are found with their deleted_at set.
func (s *Server) handleGetFiles(w http.ResponseWriter, r *http.Request, tok *Token) {
	var ids []string
	for _, v := range r.URL.Query()["file_ids"] {
		for _, id := range strings.Split(v, ",") {
			if id = strings.TrimSpace(id); id != "" {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		writeError(w, http.StatusBadRequest, "file_ids is required: a comma-separated list of file ids")
		return
	}
	if len(ids) > MaxFileIDs {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("Too many file ids: at most %d per request", MaxFileIDs))
		return
	}
	now := s.lock()
	out := make([]any, 0, len(ids))
	for _, id := range ids {
		f := s.st.files[id]
		if f == nil || f.Project.Deleted {
			out = append(out, notFoundJSON{FileID: id, Error: "not_found"})
			continue
		}
		d := detailJSON{FileID: f.ID, FileName: f.Name, ContentType: f.ContentType,
			ProcessingStatus: strings.ToLower(f.status(now))}
		if !f.DeletedAt.IsZero() {
			ts := fmtNaive(f.DeletedAt)
			d.DeletedAt = &ts
		}
		out = append(out, d)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"response": map[string]any{"content": out}})
}

// LiveFiles lists a project's live files in upload order, for tests.
func (s *Server) LiveFiles(projectID string) []FileInfo {
	now := s.lock()
	defer s.mu.Unlock()
	p := s.st.projects[projectID]
	if p == nil {
		return nil
	}
	var out []FileInfo
	for _, f := range p.Files {
		if f.DeletedAt.IsZero() {
			out = append(out, FileInfo{f.ID, p.ID, f.Name, f.Path, f.ContentType, f.status(now), f.RootFileID, f.Size, false})
		}
	}
	return out
}

// SetFileStatus sets a file's processing status for good (PROCESSING: its
// pending jobs keep it there until set again).
func (s *Server) SetFileStatus(id, status string) error {
	s.lock()
	defer s.mu.Unlock()
	f := s.st.files[id]
	st := strings.ToUpper(status)
	if f == nil {
		return errors.New("file not found")
	}
	if !slices.Contains(allStatuses, st) {
		return fmt.Errorf("unknown status %q", status)
	}
	f.Status, f.ReadyAt = st, time.Time{}
	return nil
}
