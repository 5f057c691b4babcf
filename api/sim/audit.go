package sim

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Audit log types the service is known to emit.
const (
	AuditFetchUsers = "admin:fetch_workspace_users"
	AuditLogin      = "auth:login"
	AuditWordDraft  = "user:word_add_in_docx_drafting"
	AuditOutlookAsk = "user:outlook_add_in_ask"
	// Entries the service writes for API calls. The first three names are
	// documented; the upload's is the simulator's own (none is documented).
	AuditAPIFetch         = "api:audit_log_fetch"
	AuditAPIDeleteProject = "api:vault_delete_project"
	AuditAPIMatters       = "api:client_matter_management"
	AuditAPIUpload        = "api:vault_upload_files"
	maxAuditTake          = 1000
	defaultAuditSite      = "us"
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
	for k, v := range e.Extra {
		data[k] = v
	}
	return auditJSON{ID: e.ID, Timestamp: fmtNaive(e.Timestamp), Type: e.Type, User: e.User,
		IP: e.IP, UserAgent: e.UserAgent, Data: data}
}

// searchReach is how far back search may look (the service's documented
// limit); older entries stay reachable through earliest and the listing.
const searchReach = 365 * 24 * time.Hour

func logType(r *http.Request) string { return strings.TrimSpace(r.URL.Query().Get("log_type")) }

func (e *auditEntry) is(lt string) bool { return lt == "" || e.Type == lt }

func writeLog(w http.ResponseWriter, e *auditEntry) {
	if e == nil {
		writeError(w, http.StatusNotFound, "No audit logs found")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"log": e.toJSON()})
}

// handleAuditEarliest serves GET /api/v1/logs/audit/earliest[?log_type=T].
func (s *Server) handleAuditEarliest(w http.ResponseWriter, r *http.Request, tok *Token) {
	lt := logType(r)
	s.lock()
	defer s.mu.Unlock()
	var hit *auditEntry
	for _, e := range s.st.audit {
		if e.is(lt) {
			hit = e
			break
		}
	}
	writeLog(w, hit)
}

// handleAuditLatest serves GET /api/v1/logs/audit/latest[?log_type=T]: the
// newest entry, which without a type is this read's own.
func (s *Server) handleAuditLatest(w http.ResponseWriter, r *http.Request, tok *Token) {
	lt := logType(r)
	s.lock()
	defer s.mu.Unlock()
	var hit *auditEntry
	for i := len(s.st.audit) - 1; i >= 0; i-- {
		if s.st.audit[i].is(lt) {
			hit = s.st.audit[i]
			break
		}
	}
	writeLog(w, hit)
}

// handleAuditSearch serves GET /api/v1/logs/audit/search?time=<epoch
// seconds>[&log_type=T]: the first entry at or after time. time is required,
// a whole number, and at most one year back (older is a 400, though older
// entries exist); 404 when no entry is at or after it.
func (s *Server) handleAuditSearch(w http.ResponseWriter, r *http.Request, tok *Token) {
	sec, err := strconv.ParseInt(strings.TrimSpace(r.URL.Query().Get("time")), 10, 64)
	if err != nil {
		writeError(w, http.StatusBadRequest, "time is required and must be a UTC epoch time in whole seconds")
		return
	}
	lt := logType(r)
	now := s.lock()
	defer s.mu.Unlock()
	at := time.Unix(sec, 0).UTC()
	if at.Before(now.Add(-searchReach)) {
		writeError(w, http.StatusBadRequest, "time must be at most one year in the past")
		return
	}
	log := s.st.audit
	i := sort.Search(len(log), func(i int) bool { return !log[i].Timestamp.Before(at) })
	for ; i < len(log); i++ {
		if log[i].is(lt) {
			writeLog(w, log[i])
			return
		}
	}
	writeLog(w, nil)
}

// handleAuditList serves GET /api/v1/logs/audit?from=<id>&take=<n>: up to n
// entries with id strictly greater than from, ascending. from is a cursor,
// not a lookup: any well-formed UUID is accepted, also one that is not an
// existing entry (ids are time-ordered, so "after" is still meaningful);
// a missing or malformed from, or take outside 1..1000, is a 400. An
// optional log_type filters like earliest's (the guide lists it, one copy of
// the reference does not).
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
	lt := logType(r)
	s.lock()
	defer s.mu.Unlock()
	log := s.st.audit
	i := sort.Search(len(log), func(i int) bool { return log[i].ID > from })
	out := make([]auditJSON, 0, min(take, len(log)-i))
	for ; i < len(log) && len(out) < take; i++ {
		if log[i].is(lt) {
			out = append(out, log[i].toJSON())
		}
	}
	writeJSON(w, http.StatusOK, out)
}
