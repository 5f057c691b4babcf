package sim

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DeleteDelay is how long an accepted project deletion stays "in progress"
// on the simulator clock before the project moves to the recycle bin. Until
// then the project is still listed and a repeated DELETE is accepted again.
const DeleteDelay = 5 * time.Second

type projectJSON struct {
	ID               string      `json:"id"`
	Name             string      `json:"name"`
	CreatedAt        string      `json:"created_at"`
	UpdatedAt        string      `json:"updated_at"`
	ProjectUpdatedAt string      `json:"project_updated_at"`
	CreatorEmail     string      `json:"creator_email"`
	FilesCount       int         `json:"files_count"`
	QueryCount       int         `json:"query_count"`
	SizeBytes        int64       `json:"size_bytes"`
	IsKB             bool        `json:"is_knowledge_base_project"`
	Sharing          sharingJSON `json:"sharing"`
}

type sharingJSON struct {
	UserCount       int         `json:"user_count"`
	WorkspaceCount  int         `json:"workspace_count"`
	UserShares      []shareJSON `json:"user_shares"`
	WorkspaceShares []shareJSON `json:"workspace_shares"`
}

type shareJSON struct {
	CreatedAt       string `json:"created_at"`
	DestUserEmail   string `json:"dest_user_email,omitempty"`
	DestUserID      string `json:"dest_user_id,omitempty"`
	DestWorkspaceID int    `json:"dest_workspace_id"`
	PermissionLevel string `json:"permission_level"`
	SrcUserID       string `json:"src_user_id"`
	SrcWorkspaceID  int    `json:"src_workspace_id"`
	VaultFolderID   string `json:"vault_folder_id"`
}

// workspaceNumber is the integer workspace id the sharing records use.
const workspaceNumber = 4172

func sharePermission(level string) string {
	if level == "MANAGE" {
		return "EDIT"
	}
	return "VIEW"
}

func (p *project) toJSON() projectJSON {
	sh := sharingJSON{UserShares: []shareJSON{}, WorkspaceShares: []shareJSON{}}
	for _, us := range p.UserShares {
		if us.User.Inactive {
			continue // an inactive user reaches nothing (Deactivate)
		}
		sh.UserShares = append(sh.UserShares, shareJSON{
			CreatedAt: fmtNaive(us.CreatedAt), DestUserEmail: us.User.Email, DestUserID: us.User.ID,
			DestWorkspaceID: workspaceNumber, PermissionLevel: sharePermission(us.Level),
			SrcUserID: p.Owner.ID, SrcWorkspaceID: workspaceNumber, VaultFolderID: p.ID,
		})
	}
	if p.WorkspaceShare != "" {
		sh.WorkspaceShares = append(sh.WorkspaceShares, shareJSON{
			CreatedAt: fmtNaive(p.CreatedAt), DestWorkspaceID: workspaceNumber,
			PermissionLevel: sharePermission(p.WorkspaceShare), SrcUserID: p.Owner.ID,
			SrcWorkspaceID: workspaceNumber, VaultFolderID: p.ID,
		})
	}
	sh.UserCount, sh.WorkspaceCount = len(sh.UserShares), len(sh.WorkspaceShares)
	return projectJSON{
		ID: p.ID, Name: p.Name, CreatedAt: fmtNaive(p.CreatedAt), UpdatedAt: fmtNaive(p.UpdatedAt),
		ProjectUpdatedAt: fmtNaive(p.UpdatedAt), CreatorEmail: p.Owner.Email, FilesCount: p.FileCount,
		QueryCount: p.QueryCount, SizeBytes: p.SizeBytes, IsKB: p.IsKB, Sharing: sh,
	}
}

// intParam parses an optional integer query parameter within [lo, hi].
func intParam(r *http.Request, name string, def, lo, hi int) (int, bool) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, false
	}
	return n, true
}

// handleListProjects serves GET /api/v1/vault/workspace/projects: active
// projects sorted by name (then id) so that page-number paging is stable.
func (s *Server) handleListProjects(w http.ResponseWriter, r *http.Request, tok *Token) {
	page, ok1 := intParam(r, "page", 1, 1, 1<<30)
	per, ok2 := intParam(r, "per_page", 20, 1, 100)
	if !ok1 || !ok2 {
		writeError(w, http.StatusBadRequest, "page must be >= 1 and per_page between 1 and 100")
		return
	}
	name := strings.ToLower(r.URL.Query().Get("name"))
	s.lock()
	defer s.mu.Unlock()
	var list []*project
	for _, p := range s.st.projects {
		if !p.Deleted && strings.Contains(strings.ToLower(p.Name), name) {
			list = append(list, p)
		}
	}
	slices.SortFunc(list, func(a, b *project) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	total := len(list)
	out := []projectJSON{}
	for i := (page - 1) * per; i < total && i < page*per; i++ {
		out = append(out, list[i].toJSON())
	}
	pages := (total + per - 1) / per
	writeJSON(w, http.StatusOK, map[string]any{"response": map[string]any{"content": map[string]any{
		"pagination": map[string]int{"page": page, "per_page": per, "total": total, "total_pages": pages},
		"projects":   out,
	}}})
}

// liveProject returns the active project with id, or nil.
func (st *state) liveProject(id string) *project {
	p := st.projects[id]
	if p == nil || p.Deleted {
		return nil
	}
	return p
}

type projectUser struct {
	UserID      string `json:"user_id"`
	Email       string `json:"email"`
	Name        string `json:"name"`
	AccessLevel string `json:"access_level"`
}

// users lists everyone with active access: the owner (always MANAGE), direct
// shares, members of shared groups and, for a workspace-wide share, every
// workspace user. A user reached several ways gets the highest level.
func (st *state) projectUsers(p *project) []projectUser {
	level := map[*user]string{}
	grant := func(u *user, l string) {
		if level[u] != "MANAGE" {
			level[u] = l
		}
	}
	grant(p.Owner, "MANAGE")
	for _, sh := range p.UserShares {
		grant(sh.User, sh.Level)
	}
	for _, gs := range p.GroupShares {
		for _, u := range gs.Group.Members {
			grant(u, gs.Level)
		}
	}
	if p.WorkspaceShare != "" {
		for _, u := range st.users {
			grant(u, p.WorkspaceShare)
		}
	}
	out := []projectUser{{p.Owner.ID, p.Owner.Email, p.Owner.Name, "MANAGE"}}
	for _, u := range st.users {
		if l, ok := level[u]; ok && u != p.Owner && !u.Inactive {
			out = append(out, projectUser{u.ID, u.Email, u.Name, l})
		}
	}
	return out
}

func (s *Server) handleProjectUsers(w http.ResponseWriter, r *http.Request, tok *Token) {
	s.lock()
	defer s.mu.Unlock()
	if !s.st.vaultSharing {
		writeError(w, http.StatusForbidden, "Vault sharing is disabled for this workspace")
		return
	}
	p := s.st.liveProject(r.PathValue("id"))
	if p == nil {
		writeError(w, http.StatusNotFound, "Project not found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"status": "COMPLETED", "data": map[string]any{
		"project_id": p.ID, "users": s.st.projectUsers(p),
	}})
}

// handleDeleteProject: example projects are refused (403); a project with
// processing conflicts answers the partial-failure body (409) and stays as
// it is, so the call can be retried; anything else is accepted and finishes
// DeleteDelay later on the simulator clock (see state.settle).
func (s *Server) handleDeleteProject(w http.ResponseWriter, r *http.Request, tok *Token) {
	now := s.lock()
	defer s.mu.Unlock()
	p := s.st.liveProject(r.PathValue("id"))
	switch {
	case p == nil:
		writeError(w, http.StatusNotFound, "Project not found")
	case p.IsExample:
		writeError(w, http.StatusForbidden, "Example projects cannot be deleted")
	case p.ConflictFolders > 0 || p.ConflictFiles > 0:
		writeJSON(w, http.StatusConflict, map[string]any{
			"error":   "Project deletion partially failed due to processing conflicts",
			"details": map[string]int{"failed_folders": p.ConflictFolders, "failed_files": p.ConflictFiles},
		})
	default:
		if p.DeleteDue.IsZero() {
			p.DeleteDue = now.Add(DeleteDelay)
			p.DeleteBy = tok.UserEmail
			s.st.pending = append(s.st.pending, p)
		}
		// Every accepted call is audited, a repeated one too: the service
		// logs requests, not state changes.
		s.recordAPI(r, tok, AuditAPIDeleteProject, now, map[string]any{"project_id": p.ID})
		writeJSON(w, http.StatusOK, map[string]string{"message": "Project deletion is in progress"})
	}
}
