package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os/user"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// The record of every write made through the hub (store.HubAction): the
// session's requests that change anything are seen where they leave, in
// the transport of every client the server builds (count.go), whatever
// view sent them. Each is written to the store before it goes (a write the
// record cannot hold is not sent), settled with the service's answer, and
// then given the service's own audit entries for it, read from the
// service; each step is a line of serve's log.

// writeKind names what a write does, by method and path (the documented
// write endpoints, api/endpoints.go), and the service's audit type for it.
type writeKind struct {
	method string
	path   *regexp.Regexp
	what   string
	audit  string
}

// writeKinds are compiled on first use, not at start-up: a package-level
// table of compiled expressions costs every run of the program, the
// console's first frame included (TestOurPackagesInitCheaply).
var writeKinds = sync.OnceValue(func() []writeKind {
	return []writeKind{
		{http.MethodDelete, regexp.MustCompile(`^/api/v1/vault/delete_project/([^/]+)$`), "project deleted", audit.TypeDeleteProject},
		{http.MethodPost, regexp.MustCompile(`^/api/v1/vault/upload_files/([^/]+)$`), "files uploaded", audit.TypeUpload},
		{http.MethodDelete, regexp.MustCompile(`^/api/v1/vault/delete_file/([^/]+)$`), "file deleted", "api:vault_delete_file"},
		{http.MethodPost, regexp.MustCompile(`^/api/v1/vault/projects/([^/]+)/users$`), "access changed (users added or updated)", "api:vault_update_project_users"},
		{http.MethodDelete, regexp.MustCompile(`^/api/v1/vault/projects/([^/]+)/users$`), "access changed (users removed)", "api:vault_remove_project_users"},
		{http.MethodDelete, regexp.MustCompile(`^/api/v2/matters$`), "matters deleted", audit.TypeMatters},
		{http.MethodPost, regexp.MustCompile(`^/api/v2/matters$`), "matters restored or added", audit.TypeMatters},
	}
})

// classify names a write request: what, its target (the id in its path),
// the audit type sought as evidence ("" when none is known).
func classify(method, path string) (what, target, auditType string) {
	for _, k := range writeKinds() {
		if k.method != method {
			continue
		}
		if m := k.path.FindStringSubmatch(path); m != nil {
			if len(m) > 1 {
				target = m[1]
			}
			return k.what, target, k.audit
		}
	}
	return "write " + method + " " + path, "", ""
}

// recorder is one session's part in the record: who it is.
type recorder struct {
	srv       *Server
	ss        *session
	osUser    string
	tokenUser atomic.Value // string: whoami's e-mail once known
}

type recorderKey struct{}

func withRecorder(ctx context.Context, r *recorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, r)
}

// localUser is the account serve runs as ("" when it cannot be told).
func localUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}

// actor is how the record names the session's key.
func (ss *session) actor() string {
	if ss.key.Principal != "" {
		return fmt.Sprintf("certificate %s (key ID %q, %s)", ss.key.Principal, ss.key.KeyID, ss.key.Fingerprint)
	}
	return strings.TrimSpace("key " + ss.key.Fingerprint + " " + ss.key.Comment)
}

// isWrite: every method but the reads.
func isWrite(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// roundTrip records and sends one write of the session.
func (rc *recorder) roundTrip(next http.RoundTripper, r *http.Request) (*http.Response, error) {
	what, target, auditType := classify(r.Method, r.URL.Path)
	tokUser, _ := rc.tokenUser.Load().(string)
	a := store.HubAction{Actor: rc.ss.actor(), KeySHA256: rc.ss.key.Fingerprint, KeyComment: rc.ss.key.Comment,
		Principal: rc.ss.key.Principal, KeyID: rc.ss.key.KeyID, OSUser: rc.osUser, Remote: rc.ss.remote,
		Profile: rc.ss.profileName(), TokenUser: tokUser, Method: r.Method, Path: r.URL.Path, What: what, Target: target,
		AuditType: auditType}
	if name := api.SubjectOf(r.Context()); name != "" && target != "" {
		a.Target = target + " " + name
	} else if name := rc.srv.projectName(a.Profile, target); name != "" {
		a.Target = target + " " + name
	}
	sent := time.Now()
	id, err := rc.srv.st.RecordHubAction(a)
	if err != nil {
		rc.srv.log.Error("a write was not sent: it could not be recorded", "actor", a.Actor, "what", what, "error", err)
		return nil, fmt.Errorf("%w: %v", api.ErrNotSent, err)
	}
	resp, rerr := next.RoundTrip(r)
	status, outcome, detail := 0, store.HubUnknown, ""
	switch {
	case rerr != nil:
		detail = "no answer: " + rerr.Error()
	case resp.StatusCode < 300:
		status, outcome = resp.StatusCode, store.HubDone
	case resp.StatusCode < 500:
		status, outcome = resp.StatusCode, store.HubRefused
	default:
		status, outcome = resp.StatusCode, store.HubFailed
	}
	if err := rc.srv.st.SettleHubAction(id, status, outcome, detail); err != nil {
		rc.srv.log.Error("a write's answer could not be recorded", "action", id, "error", err)
	}
	rc.srv.log.LogAttrs(context.Background(), slog.LevelInfo, "hub action",
		slog.Int64("action", id), slog.String("actor", a.Actor), slog.String("os_user", a.OSUser),
		slog.String("profile", a.Profile), slog.String("what", what), slog.String("target", sanitize.Line(a.Target)),
		slog.String("outcome", outcome), slog.Int("status", status))
	if outcome == store.HubDone && auditType != "" {
		go rc.srv.findEvidence(id, rc, a, sent)
	}
	return resp, rerr
}

// projectName is the stored name of a project id for profile ("" unknown).
func (s *Server) projectName(profile, id string) string {
	if id == "" || profile == "" || profile == "login" {
		return ""
	}
	names, err := s.st.ProjectNames(profile)
	if err != nil {
		return ""
	}
	return names[strings.ToLower(id)]
}

// evidenceTries are when the service's audit log is read for a write's
// entry, after its answer: the service writes it at once or within
// seconds; past the last try the record says none was found yet.
var evidenceTries = []time.Duration{500 * time.Millisecond, 3 * time.Second, 15 * time.Second}

// findEvidence reads the service's audit log for action id's entries: of
// its type, from a second before it was sent, naming its project where the
// entry names one, of the token's user when known.
func (s *Server) findEvidence(id int64, rc *recorder, a store.HubAction, sent time.Time) {
	c := rc.ss.apiClient()
	if c == nil {
		return
	}
	project, _, _ := strings.Cut(a.Target, " ")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var ids []string
	var lastErr error
	for _, wait := range evidenceTries {
		if api.Sleep(ctx, wait) != nil {
			break
		}
		ids, lastErr = auditEntriesFor(ctx, c, a.AuditType, a.TokenUser, project, sent)
		if len(ids) > 0 {
			break
		}
	}
	note := fmt.Sprintf("%d entr%s of %s", len(ids), map[bool]string{true: "y", false: "ies"}[len(ids) == 1], a.AuditType)
	if len(ids) == 0 {
		note = "none found in the service's log yet"
		if lastErr != nil {
			note = "unknown: " + sanitize.Line(lastErr.Error())
		}
	}
	if err := s.st.HubActionEvidence(id, ids, note); err != nil {
		s.log.Error("a write's evidence could not be recorded", "action", id, "error", err)
	}
	s.log.Info("hub action evidence", "action", id, "actor", a.Actor, "what", a.What, "target", sanitize.Line(a.Target),
		"audit_entries", strings.Join(ids, " "), "note", note)
}

// auditEntriesFor reads the log of type from just before sent (the
// service's search, then its listing) and keeps the matching entries.
func auditEntriesFor(ctx context.Context, c *api.SharedClient, typ, user, project string, sent time.Time) ([]string, error) {
	first, err := c.AuditSearch(ctx, sent.Add(-time.Second), typ)
	if err != nil || first == nil {
		return nil, err
	}
	var ids []string
	keep := func(e api.AuditEntry, raw []byte) {
		if !strings.EqualFold(string(e.Type), typ) || (user != "" && !strings.EqualFold(e.User, user)) {
			return
		}
		if project != "" {
			var v struct {
				Data struct {
					ProjectID string `json:"project_id"`
				} `json:"data"`
			}
			if json.Unmarshal(raw, &v) == nil && v.Data.ProjectID != "" && v.Data.ProjectID != project {
				return
			}
		}
		ids = append(ids, e.ID)
	}
	keep(first.Value, first.JSON)
	seen := 0
	_, err = c.Audit(api.AuditQuery{Type: typ, From: first.Value.ID}).Each(ctx, func(e *api.AuditEntry, raw api.RawItem) error {
		if seen++; seen > 200 {
			return errStopListing
		}
		keep(*e, raw.Bytes)
		return nil
	}, nil)
	if errors.Is(err, errStopListing) {
		err = nil
	}
	return ids, err
}

var errStopListing = errors.New("enough entries read")
