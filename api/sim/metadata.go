package sim

// A project's metadata and limits (facts §4.6) and the deletion of one file
// (§4.7). The service documents the limits' names (max_file_count,
// max_project_size) but not their defaults: the simulator's are
// DefaultMaxFileCount and DefaultMaxProjectSize, settable per project
// (SetProjectLimits, POST /_sim/project_limits). An upload that would pass
// either is refused whole with 400 before anything is stored (the
// service's status for it is not documented).

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// The simulator's default limits of a project: the service documents
// none. 100,000 files, so the large seed's biggest project (100,000 files)
// is at its limit, as a full project is, rather than past it.
const (
	DefaultMaxFileCount   = 100_000
	DefaultMaxProjectSize = int64(500_000_000_000) // 500 GB
)

// AuditAPIDeleteFile is the entry a file's deletion writes (§4.7: "On
// success it logs an audit event"; the type's name is the simulator's, in
// the pattern of the documented api:vault_delete_project).
const AuditAPIDeleteFile = "api:vault_delete_file"

func (p *project) maxFiles() int {
	if p.MaxFiles > 0 {
		return p.MaxFiles
	}
	return DefaultMaxFileCount
}

func (p *project) maxBytes() int64 {
	if p.MaxBytes > 0 {
		return p.MaxBytes
	}
	return DefaultMaxProjectSize
}

// SetProjectLimits sets a project's limits; 0 puts a limit back to its
// default.
func (s *Server) SetProjectLimits(projectID string, files int, bytes int64) error {
	s.lock()
	defer s.mu.Unlock()
	p := s.st.liveProject(projectID)
	if p == nil {
		return errors.New("project not found")
	}
	if files < 0 || bytes < 0 {
		return errors.New("limits must not be negative")
	}
	p.MaxFiles, p.MaxBytes = files, bytes
	return nil
}

// SetMetadataShape makes get_metadata answer in the older flat shape
// (content an object) or the current one (content a list of one).
func (s *Server) SetMetadataShape(flat bool) { s.lock(); s.st.metadataFlat = flat; s.mu.Unlock() }

// handleGetMetadata serves GET /api/v1/vault/get_metadata/{id}: 201, as the
// current OpenAPI declares, the size a string as in its example.
func (s *Server) handleGetMetadata(w http.ResponseWriter, r *http.Request, tok *Token) {
	s.lock()
	defer s.mu.Unlock()
	p := s.st.liveProject(r.PathValue("id"))
	if p == nil {
		writeError(w, http.StatusNotFound, "Project not found")
		return
	}
	ids, names := []string{}, []string{}
	for _, f := range p.Files {
		if f.DeletedAt.IsZero() {
			ids, names = append(ids, f.ID), append(names, f.Name)
		}
	}
	m := map[string]any{"project_id": p.ID, "file_ids": ids, "file_count": p.FileCount,
		"max_file_count": p.maxFiles(), "project_size": strconv.FormatInt(p.SizeBytes, 10), "max_project_size": p.maxBytes()}
	var content any = []any{m}
	if s.st.metadataFlat {
		content = m
	} else {
		m["file_names"] = names
	}
	writeJSON(w, http.StatusCreated, map[string]any{"response": map[string]any{"content": content}})
}

// uploadLimit says why an upload of parts in mode would pass p's limits,
// or "" when it would not: the files it adds and the bytes it adds,
// counted as storeUpload would store them (a skip adds nothing, a replace
// swaps one file for another).
func uploadLimit(p *project, parts []uploadedPart, mode string) string {
	files, bytes := p.FileCount, p.SizeBytes
	seen := map[string]bool{}
	for _, up := range parts {
		old := p.live[up.name]
		switch {
		case old != nil && mode == "skip", seen[up.name] && mode == "skip":
			continue
		case old != nil && mode == "replace":
			bytes += up.size - old.Size
		default:
			files++
			bytes += up.size
		}
		seen[up.name] = true
	}
	switch {
	case files > p.maxFiles():
		return fmt.Sprintf("Project file limit exceeded: the project holds %d of at most %s; this upload would add %d", p.FileCount, plural.Count(p.maxFiles(), "file"), files-p.FileCount)
	case bytes > p.maxBytes():
		return fmt.Sprintf("Project size limit exceeded: the project holds %d of at most %s; this upload would make it %d", p.SizeBytes, plural.Count(int(p.maxBytes()), "byte"), bytes)
	}
	return ""
}

// handleDeleteFile serves DELETE /api/v1/vault/delete_file/{id}: 409 while
// the file is still being processed (its pending jobs), 404 for a file
// that is not there (never was, deleted, its project deleted), else the
// file is gone from the listing and the metadata, get_files answers it
// with deleted_at, and an audit entry records it.
func (s *Server) handleDeleteFile(w http.ResponseWriter, r *http.Request, tok *Token) {
	now := s.lock()
	defer s.mu.Unlock()
	f := s.st.files[r.PathValue("id")]
	if f == nil || f.Project.Deleted || !f.DeletedAt.IsZero() {
		writeError(w, http.StatusNotFound, "File not found")
		return
	}
	switch f.status(now) {
	case StatusProcessing, StatusUploaded:
		writeError(w, http.StatusConflict, "The file has pending jobs and cannot be deleted yet; try again later")
		return
	}
	s.st.retireFile(f, now)
	f.Project.UpdatedAt = now
	s.recordAPI(r, tok, AuditAPIDeleteFile, now, map[string]any{"project_id": f.Project.ID, "file_id": f.ID, "file_name": f.Name})
	writeJSON(w, http.StatusOK, map[string]any{"message": "File deleted", "file_id": f.ID, "deleted_at": fmtNaive(now)})
}

// controlMetadata is the /_sim/ side of the limits and the shape.
func (s *Server) controlMetadata(op, projectID string, files int, bytes int64, shape string) error {
	if op == "project_limits" {
		return s.SetProjectLimits(projectID, files, bytes)
	}
	switch shape {
	case "flat", "list":
		s.SetMetadataShape(shape == "flat")
		return nil
	}
	return errors.New(`"shape" must be "flat" (the older answer) or "list" (the current one)`)
}
