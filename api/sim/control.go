package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The control surface: Go methods for in-process callers and the matching
// unauthenticated POST /_sim/{op} endpoints (only when Options.Control).

// MatterSpec describes a matter to add.
type MatterSpec struct {
	ClientID         string `json:"client_id"`
	MatterID         string `json:"matter_id"`
	StoredName       string `json:"stored_name,omitempty"` // default client_id + delimiter + matter_id
	Description      string `json:"description,omitempty"`
	ExternallyLinked bool   `json:"externally_linked,omitempty"`
	V1               bool   `json:"v1,omitempty"` // stored name only; the pair is not indexed
	Deleted          bool   `json:"deleted,omitempty"`
}

// ProjectSpec describes a project to add.
type ProjectSpec struct {
	Name           string `json:"name"`
	KnowledgeBase  bool   `json:"knowledge_base,omitempty"`
	Example        bool   `json:"example,omitempty"`
	FailedFolders  int    `json:"failed_folders,omitempty"` // > 0 (or FailedFiles) makes deletion partially fail
	FailedFiles    int    `json:"failed_files,omitempty"`
	ClientMatterID string `json:"client_matter_id,omitempty"`
	OwnerEmail     string `json:"owner_email,omitempty"` // default: the first seeded user
}

// FileSpec describes a file to add to a project.
type FileSpec struct {
	Name   string `json:"name"`
	Status string `json:"status,omitempty"` // any processing status, case-insensitive; default READY_TO_QUERY
	Size   int64  `json:"size,omitempty"`
	// ReadyInSeconds, for PROCESSING files: becomes READY_TO_QUERY after this
	// many sim-clock seconds; 0 means stuck for good.
	ReadyInSeconds int `json:"ready_in_seconds,omitempty"`
}

// MatterInfo is a read-only view of a stored matter, for tests.
type MatterInfo struct {
	ServiceID, ClientID, MatterID, StoredName, Description string
	ExternallyLinked, V1, Deleted                          bool
}

// FileInfo is a read-only view of a stored file, for tests.
type FileInfo struct {
	ID, ProjectID, Name, Path, ContentType, Status, RootFileID string
	Size                                                       int64
	Deleted                                                    bool
}

// ProjectInfo is a read-only view of a project, for tests.
type ProjectInfo struct {
	ID, Name                                 string
	KnowledgeBase, Example, DeleteInProgress bool
	Deleted                                  bool
	FileCount                                int
}

// Reset throws the state away and regenerates it from the seed; the clock,
// tokens and rate-limit windows are kept.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = s.seed()
}

// SetDelimiter sets the workspace's client-matter delimiter ("" or blank: unset).
func (s *Server) SetDelimiter(d string) { s.lock(); s.st.delimiter = d; s.mu.Unlock() }

// SetEthicalWall switches ethical-wall enforcement.
func (s *Server) SetEthicalWall(on bool) { s.lock(); s.st.ethicalWall = on; s.mu.Unlock() }

// SetVaultSharing switches the workspace's vault sharing setting.
func (s *Server) SetVaultSharing(on bool) { s.lock(); s.st.vaultSharing = on; s.mu.Unlock() }

// AddMatter adds a matter and returns its service UUID.
func (s *Server) AddMatter(sp MatterSpec) (string, error) {
	now := s.lock()
	defer s.mu.Unlock()
	st := s.st
	k := pairKey{strings.TrimSpace(sp.ClientID), strings.TrimSpace(sp.MatterID)}
	stored := sp.StoredName
	if stored == "" {
		if k.client == "" || k.matter == "" {
			return "", errors.New("client_id and matter_id are required unless stored_name is given")
		}
		stored = k.client + st.delim() + k.matter
	}
	if !sp.V1 {
		if k.client == "" || k.matter == "" {
			return "", errors.New("client_id and matter_id are required for a v2 matter")
		}
		if st.byPair[k] != nil {
			return "", fmt.Errorf("matter (%s, %s) already exists", k.client, k.matter)
		}
	}
	m := &matter{ServiceID: uuid4(st.rng), StoredName: stored, Description: sp.Description,
		ExternallyLinked: sp.ExternallyLinked, V1: sp.V1, CreatedAt: now, CreatorEmail: "sim-control@harrowgate-law.com"}
	if !sp.V1 {
		// A v1 matter is found by stored name only, so only v2 gets a pair.
		m.ClientID, m.MatterID = k.client, k.matter
		if st.clients[k.client] == nil {
			st.clients[k.client] = &client{ID: uuid4(st.rng), ClientID: k.client, Name: k.client}
		}
	}
	st.addMatter(m)
	if sp.Deleted {
		m.DeletedAt = now
	}
	return m.ServiceID, nil
}

// Matters lists every stored matter (deleted ones included), in creation order.
func (s *Server) Matters() []MatterInfo {
	s.lock()
	defer s.mu.Unlock()
	out := make([]MatterInfo, 0, len(s.st.matters))
	for _, m := range s.st.matters {
		out = append(out, MatterInfo{m.ServiceID, m.ClientID, m.MatterID, m.StoredName, m.Description,
			m.ExternallyLinked, m.V1, m.deleted()})
	}
	return out
}

// AddProject adds an empty project and returns its id.
func (s *Server) AddProject(sp ProjectSpec) (string, error) {
	now := s.lock()
	defer s.mu.Unlock()
	if strings.TrimSpace(sp.Name) == "" {
		return "", errors.New("name is required")
	}
	owner := s.st.users[0]
	if sp.OwnerEmail != "" {
		i := slices.IndexFunc(s.st.users, func(u *user) bool { return strings.EqualFold(u.Email, sp.OwnerEmail) })
		if i < 0 {
			return "", fmt.Errorf("no workspace user %q", sp.OwnerEmail)
		}
		owner = s.st.users[i]
	}
	p := &project{ID: uuid4(s.st.rng), Name: sp.Name, CreatedAt: now, UpdatedAt: now, Owner: owner,
		IsKB: sp.KnowledgeBase, IsExample: sp.Example, ClientMatterID: sp.ClientMatterID,
		ConflictFolders: sp.FailedFolders, ConflictFiles: sp.FailedFiles}
	s.st.addProject(p)
	return p.ID, nil
}

// Leaver is the planted leaver's e-mail (Options.Leaver), or "".
func (s *Server) Leaver() string {
	s.lock()
	defer s.mu.Unlock()
	return s.st.leaver
}

// Projects lists every project (deleted ones in the bin included, purged
// ones not: they are gone for good), sorted by name.
func (s *Server) Projects() []ProjectInfo {
	s.lock()
	defer s.mu.Unlock()
	out := make([]ProjectInfo, 0, len(s.st.projects))
	for _, p := range s.st.projects {
		out = append(out, ProjectInfo{p.ID, p.Name, p.IsKB, p.IsExample, !p.DeleteDue.IsZero() && !p.Deleted, p.Deleted, p.FileCount})
	}
	slices.SortFunc(out, func(a, b ProjectInfo) int { return strings.Compare(a.Name+a.ID, b.Name+b.ID) })
	return out
}

// AddFiles adds files with given statuses to a project and returns their ids.
// Names already present get the keep-mode suffix.
func (s *Server) AddFiles(projectID string, files []FileSpec) ([]string, error) {
	now := s.lock()
	defer s.mu.Unlock()
	p := s.st.liveProject(projectID)
	if p == nil {
		return nil, errors.New("project not found")
	}
	for _, fs := range files {
		st := strings.ToUpper(fs.Status)
		if st != "" && !slices.Contains(allStatuses, st) {
			return nil, fmt.Errorf("unknown status %q", fs.Status)
		}
		if strings.TrimSpace(fs.Name) == "" {
			return nil, errors.New("file name is required")
		}
	}
	ids := make([]string, 0, len(files))
	for _, fs := range files {
		name := fs.Name
		if p.live[name] != nil {
			name = freeName(p, name)
		}
		f := &file{ID: uuid4(s.st.rng), Name: name, Path: "/" + name, ContentType: contentTypeFor(name, ""),
			Status: strings.ToUpper(fs.Status), Size: max(fs.Size, 0), UploadedAt: now, Project: p}
		if f.Status == "" {
			f.Status = StatusReadyToQuery
		}
		if f.Status == StatusProcessing && fs.ReadyInSeconds > 0 {
			f.ReadyAt = now.Add(time.Duration(fs.ReadyInSeconds) * time.Second)
		}
		s.st.addFile(f)
		ids = append(ids, f.ID)
	}
	p.UpdatedAt = now
	return ids, nil
}

// File returns a stored file by id (replaced files included).
func (s *Server) File(id string) (FileInfo, bool) {
	now := s.lock()
	defer s.mu.Unlock()
	f := s.st.files[id]
	if f == nil {
		return FileInfo{}, false
	}
	return FileInfo{f.ID, f.Project.ID, f.Name, f.Path, f.ContentType, f.status(now), f.RootFileID,
		f.Size, !f.DeletedAt.IsZero()}, true
}

func (s *Server) handleControl(w http.ResponseWriter, r *http.Request) {
	if !s.opts.Control {
		writeError(w, http.StatusNotFound, "Not found")
		return
	}
	var body struct {
		Delimiter *string    `json:"delimiter"`
		Enabled   *bool      `json:"enabled"`
		Seconds   float64    `json:"seconds"`
		ProjectID string     `json:"project_id"`
		Files     []FileSpec `json:"files"`
		PerMinute *int       `json:"per_minute"`
		Email     string     `json:"email"`
		Level     *string    `json:"level"`
		// project_limits and metadata_shape (metadata.go)
		MaxFileCount   int    `json:"max_file_count"`
		MaxProjectSize int64  `json:"max_project_size"`
		Shape          string `json:"shape"`
		Token          string `json:"token"`
		MatterSpec
		ProjectSpec
	}
	raw := http.MaxBytesReader(w, r.Body, 8<<20)
	if err := json.NewDecoder(raw).Decode(&body); err != nil && !errors.Is(err, io.EOF) {
		writeError(w, http.StatusBadRequest, "Invalid JSON body: "+err.Error())
		return
	}
	fail := func(err error) { writeError(w, http.StatusBadRequest, err.Error()) }
	switch r.PathValue("op") {
	case "reset":
		s.Reset()
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case "delimiter":
		if body.Delimiter == nil {
			fail(errors.New(`"delimiter" is required`))
			return
		}
		s.SetDelimiter(*body.Delimiter)
		writeJSON(w, http.StatusOK, map[string]string{"delimiter": *body.Delimiter})
	case "ethical_wall", "vault_sharing":
		if body.Enabled == nil {
			fail(errors.New(`"enabled" is required`))
			return
		}
		if r.PathValue("op") == "ethical_wall" {
			s.SetEthicalWall(*body.Enabled)
		} else {
			s.SetVaultSharing(*body.Enabled)
		}
		writeJSON(w, http.StatusOK, map[string]bool{"enabled": *body.Enabled})
	case "matters":
		id, err := s.AddMatter(body.MatterSpec)
		if err != nil {
			fail(err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"service_id": id})
	case "projects":
		id, err := s.AddProject(body.ProjectSpec)
		if err != nil {
			fail(err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"id": id})
	case "files":
		ids, err := s.AddFiles(body.ProjectID, body.Files)
		if err != nil {
			fail(err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"file_ids": ids})
	case "audit_trickle":
		if body.PerMinute == nil || *body.PerMinute < 0 {
			fail(errors.New(`"per_minute" is required and must not be negative (0 stops the trickle)`))
			return
		}
		s.SetAuditTrickle(*body.PerMinute)
		writeJSON(w, http.StatusOK, map[string]int{"per_minute": *body.PerMinute})
	case "share":
		if body.Level == nil {
			fail(errors.New(`"level" is required: READ, MANAGE, or "" to revoke`))
			return
		}
		if err := s.Share(body.ProjectID, body.Email, *body.Level); err != nil {
			fail(err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case "project_limits", "metadata_shape":
		if err := s.controlMetadata(r.PathValue("op"), body.ProjectID, body.MaxFileCount, body.MaxProjectSize, body.Shape); err != nil {
			fail(err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case "deactivate":
		if err := s.Deactivate(body.Email); err != nil {
			fail(err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	case "revoke", "restore":
		op := r.PathValue("op")
		ok := false
		if op == "revoke" {
			ok = s.Revoke(body.Token)
		} else {
			ok = s.Restore(body.Token)
		}
		if !ok {
			fail(fmt.Errorf(`"token" must name one of the simulator's tokens (admin, vault-readonly, no-audit, no-matters), not %q`, body.Token))
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"token": body.Token, "revoked": op == "revoke"})
	case "stats":
		writeJSON(w, http.StatusOK, map[string]any{"rate_limited": s.RateLimited()})
	case "advance":
		if body.Seconds < 0 {
			fail(errors.New("seconds must not be negative"))
			return
		}
		s.Advance(time.Duration(body.Seconds * float64(time.Second)))
		writeJSON(w, http.StatusOK, map[string]string{"now": fmtZ(s.Now())})
	default:
		writeError(w, http.StatusNotFound, "Unknown control operation")
	}
}
