package sim

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// Audit log types the service is known to emit.
const (
	AuditFetchUsers  = "admin:fetch_workspace_users"
	AuditLogin       = "auth:login"
	AuditWordDraft   = "user:word_add_in_docx_drafting"
	AuditOutlookAsk  = "user:outlook_add_in_ask"
	maxAuditTake     = 1000
	defaultAuditSite = "us"
)

type auditJSON struct {
	ID        string         `json:"id"`
	Timestamp string         `json:"timestamp"`
	Type      string         `json:"type"`
	User      string         `json:"user"`
	IP        string         `json:"ip"`
	UserAgent string         `json:"user_agent"`
	Data      map[string]any `json:"data"`
}

func (e *auditEntry) toJSON() auditJSON {
	data := map[string]any{"ip": e.IP, "site": e.Site, "user_agent": e.UserAgent}
	if e.Type == AuditFetchUsers {
		data["len_fetched_users"] = e.Fetched
	}
	return auditJSON{ID: e.ID, Timestamp: fmtNaive(e.Timestamp), Type: e.Type, User: e.User,
		IP: e.IP, UserAgent: e.UserAgent, Data: data}
}

func (s *Server) handleAuditEarliest(w http.ResponseWriter, r *http.Request, tok *Token) {
	lt := strings.TrimSpace(r.URL.Query().Get("log_type"))
	s.lock()
	defer s.mu.Unlock()
	for _, e := range s.st.audit {
		if lt == "" || e.Type == lt {
			writeJSON(w, http.StatusOK, map[string]any{"log": e.toJSON()})
			return
		}
	}
	writeError(w, http.StatusNotFound, "No audit logs found")
}

// handleAuditList serves GET /api/v1/logs/audit?from=<id>&take=<n>: up to n
// entries with id strictly greater than from, ascending. from is a cursor,
// not a lookup: any well-formed UUID is accepted, also one that is not an
// existing entry (ids are time-ordered, so "after" is still meaningful);
// a missing or malformed from, or take outside 1..1000, is a 400. An
// optional log_type filters like earliest's (undocumented upstream).
func (s *Server) handleAuditList(w http.ResponseWriter, r *http.Request, tok *Token) {
	q := r.URL.Query()
	from := strings.ToLower(strings.TrimSpace(q.Get("from")))
	if !validUUID(from) {
		writeError(w, http.StatusBadRequest, "from is required and must be an audit log id (UUID)")
		return
	}
	take, err := strconv.Atoi(q.Get("take"))
	if err != nil || take < 1 || take > maxAuditTake {
		writeError(w, http.StatusBadRequest, "take is required and must be between 1 and 1000")
		return
	}
	lt := strings.TrimSpace(q.Get("log_type"))
	s.lock()
	defer s.mu.Unlock()
	log := s.st.audit
	i := sort.Search(len(log), func(i int) bool { return log[i].ID > from })
	out := make([]auditJSON, 0, min(take, len(log)-i))
	for ; i < len(log) && len(out) < take; i++ {
		if lt == "" || log[i].Type == lt {
			out = append(out, log[i].toJSON())
		}
	}
	writeJSON(w, http.StatusOK, out)
}
