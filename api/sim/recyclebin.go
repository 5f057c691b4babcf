package sim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

type recycleJSON struct {
	ID                          string          `json:"id"`
	ResourceID                  string          `json:"resource_id"`
	ResourceType                string          `json:"resource_type"`
	RecycleBinStatus            string          `json:"recycle_bin_status"`
	DeletedAt                   string          `json:"deleted_at"`
	RecycleBinPurgedScheduledAt string          `json:"recycle_bin_purged_scheduled_at"`
	DeleteSource                string          `json:"delete_source"`
	DeletedSourceID             string          `json:"deleted_source_id"`
	DeletedByUserEmail          string          `json:"deleted_by_user_email"`
	VaultProject                recycledProject `json:"vault_project"`
}

type recycledProject struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	CreatedAt    string `json:"created_at"`
	CreatorEmail string `json:"creator_email"`
	FilesCount   int    `json:"files_count"`
	IsKB         bool   `json:"is_knowledge_base_project"`
}

func (e *recycleEntry) toJSON() recycleJSON {
	return recycleJSON{
		ID: e.ID, ResourceID: e.ResourceID, ResourceType: "vault_project", RecycleBinStatus: "deleted",
		DeletedAt: fmtZ(e.DeletedAt), RecycleBinPurgedScheduledAt: fmtZ(e.PurgeAt),
		DeleteSource: "customer_delete", DeletedSourceID: e.DeletedSourceID, DeletedByUserEmail: e.DeletedBy,
		VaultProject: recycledProject{
			ID: e.ResourceID, Name: e.ProjectName, CreatedAt: fmtNaive(e.ProjectCreatedAt),
			CreatorEmail: e.CreatorEmail, FilesCount: e.FilesCount, IsKB: e.IsKB,
		},
	}
}

// handleRecycleBin serves GET /api/v1/vault/workspace/recycle_bin with the
// optional filters name (case-insensitive substring of the project name) and
// client_matter_id (exact client-matter UUID, compared case-insensitively).
// No paging: the whole filtered list comes back, newest deletion first.
// Entries are immutable once created, so the lock is held only while
// filtering; the body (tens of MB at large scale) is then streamed item by
// item instead of being built in memory.
func (s *Server) handleRecycleBin(w http.ResponseWriter, r *http.Request, tok *Token) {
	q := r.URL.Query()
	name := strings.ToLower(q.Get("name"))
	cm := strings.ToLower(strings.TrimSpace(q.Get("client_matter_id")))
	s.lock()
	var hits []*recycleEntry
	for _, e := range s.st.recycle {
		if name != "" && !strings.Contains(strings.ToLower(e.ProjectName), name) {
			continue
		}
		if cm != "" && strings.ToLower(e.ClientMatterID) != cm {
			continue
		}
		hits = append(hits, e)
	}
	s.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	bw.WriteString(`{"items":[`)
	for i, e := range hits {
		if i > 0 {
			bw.WriteByte(',')
		}
		_ = enc.Encode(e.toJSON()) // adds a newline: valid whitespace
	}
	fmt.Fprintf(bw, "],\"total\":%d}\n", len(hits))
	bw.Flush()
}
