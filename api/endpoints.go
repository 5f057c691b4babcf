package api

import (
	"net/http"
	"strings"
)

// endpoint is what the client knows about one operation: its rate-limit
// category, the permission the spec requires (for error messages), and
// whether repeating it is safe.
type endpoint struct {
	method  string
	pattern string // as the spec writes it, for messages and logs
	cat     Category
	perm    string
	// permIn401: the matter endpoints answer 401, not 403, when the token
	// lacks the permission, so a 401 there is ambiguous.
	permIn401  bool
	idempotent bool
}

func (e endpoint) String() string { return e.method + " " + e.pattern }

// Permission wording follows the spec's per-endpoint table.
const (
	permVaultAPI = "Vault API"
	permView     = "View workspace projects"
	permModify   = "Vault API and Modify workspace projects"
	permSharing  = "Vault API, and Vault sharing (view only) or Vault sharing"
	permShare    = "Vault API and Vault sharing"
	permAudit    = "Territory admin or Organization admin"
	permMatters  = "Client matters admin (write:client_matters)"
)

// The endpoint table: immutable after init.
var (
	epWhoAmI       = endpoint{method: http.MethodGet, pattern: "/api/whoami", cat: CategoryNone, perm: "", permIn401: false, idempotent: true}
	epProjects     = endpoint{method: http.MethodGet, pattern: "/api/v1/vault/workspace/projects", cat: CategoryVault, perm: permView, permIn401: false, idempotent: true}
	epProjectFiles = endpoint{method: http.MethodGet, pattern: "/api/v1/vault/projects/{project_id}/files", cat: CategoryVault, perm: permVaultAPI, permIn401: false, idempotent: true}
	epProjectUsers = endpoint{method: http.MethodGet, pattern: "/api/v1/vault/projects/{project_id}/users", cat: CategoryVault, perm: permSharing, permIn401: false, idempotent: true}
	// Sharing changes: never repeated automatically (a journal decides).
	epUpdateUsers = endpoint{method: http.MethodPost, pattern: "/api/v1/vault/projects/{project_id}/users", cat: CategoryVault, perm: permShare, permIn401: false, idempotent: false}
	epRemoveUsers = endpoint{method: http.MethodDelete, pattern: "/api/v1/vault/projects/{project_id}/users", cat: CategoryVault, perm: permShare, permIn401: false, idempotent: false}
	epRecycleBin  = endpoint{method: http.MethodGet, pattern: "/api/v1/vault/workspace/recycle_bin", cat: CategoryVault, perm: permView, permIn401: false, idempotent: true}
	epGetFiles    = endpoint{method: http.MethodGet, pattern: "/api/v1/vault/get_files", cat: CategoryVault, perm: permVaultAPI, permIn401: false, idempotent: true}
	epUpload      = endpoint{method: http.MethodPost, pattern: "/api/v1/vault/upload_files/{project_id}", cat: CategoryVault, perm: permModify, permIn401: false, idempotent: false}
	// delete_file (facts §4.7) is not repeated automatically: a repeat of
	// a deletion whose answer was lost would read 404, "already gone",
	// for a file this very request deleted. The write job checks instead.
	epDeleteFile    = endpoint{method: http.MethodDelete, pattern: "/api/v1/vault/delete_file/{file_id}", cat: CategoryVault, perm: permModify, permIn401: false, idempotent: false}
	epGetMetadata   = endpoint{method: http.MethodGet, pattern: "/api/v1/vault/get_metadata/{project_id}", cat: CategoryVault, perm: permVaultAPI, permIn401: false, idempotent: true}
	epDeleteProject = endpoint{method: http.MethodDelete, pattern: "/api/v1/vault/delete_project/{project_id}", cat: CategoryVault, perm: permModify, permIn401: false, idempotent: false}
	epAuditEarliest = endpoint{method: http.MethodGet, pattern: "/api/v1/logs/audit/earliest", cat: CategoryAudit, perm: permAudit, permIn401: false, idempotent: true}
	epAuditList     = endpoint{method: http.MethodGet, pattern: "/api/v1/logs/audit", cat: CategoryAudit, perm: permAudit, permIn401: false, idempotent: true}
	epAuditLatest   = endpoint{method: http.MethodGet, pattern: "/api/v1/logs/audit/latest", cat: CategoryAudit, perm: permAudit, permIn401: false, idempotent: true}
	epAuditSearch   = endpoint{method: http.MethodGet, pattern: "/api/v1/logs/audit/search", cat: CategoryAudit, perm: permAudit, permIn401: false, idempotent: true}
	// The spec calls repeating a deletion safe (rule 7); an upsert is not
	// declared so, and is never repeated automatically.
	epDeleteMatters = endpoint{method: http.MethodDelete, pattern: "/api/v2/matters", cat: CategoryMatters, perm: permMatters, permIn401: true, idempotent: true}
	epUpsertMatters = endpoint{method: http.MethodPost, pattern: "/api/v2/matters", cat: CategoryMatters, perm: permMatters, permIn401: true, idempotent: false}
	// The client-matters listing shares the 150-a-minute budget (facts §6.1).
	epListMatters = endpoint{method: http.MethodGet, pattern: "/api/v1/client_matters", cat: CategoryMatters, perm: permMatters, permIn401: true, idempotent: true}
)

// needs maps each permission sentence to whoami's names for it: every
// group is required, any one permission of a group satisfies it.
var needs = map[string][][]string{
	permVaultAPI: {{"Vault API"}},
	permView:     {{"View workspace projects"}},
	permModify:   {{"Vault API"}, {"Modify workspace projects"}},
	permSharing:  {{"Vault API"}, {"Vault sharing (view only)", "Vault sharing"}},
	permShare:    {{"Vault API"}, {"Vault sharing"}},
	permAudit:    {{"Territory admin", "Organization admin"}},
	permMatters:  {{"Client matters admin"}},
}

// requireID refuses a request that lacks its ID before anything is sent.
func requireID(ep endpoint, what, id string) error {
	if strings.TrimSpace(id) == "" {
		return &Error{Kind: KindInvalidRequest, Endpoint: ep.String(), Message: "a " + what + " is required"}
	}
	return nil
}

// Limits the spec states for one request.
const (
	MaxFileIDs        = 1000        // file IDs per get_files call
	MaxPairs          = 10_000      // matter pairs per request
	MaxFilesPerUpload = 50          // files per upload request
	MaxFileBytes      = 500_000_000 // bytes per uploaded file
	MaxFileLimit      = 100         // files per project-files page
)
