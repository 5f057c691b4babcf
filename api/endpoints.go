package api

import "net/http"

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
	permAudit    = "Territory admin or Organization admin"
	permMatters  = "Client matters admin (write:client_matters)"
)

// The endpoint table: immutable after init.
var (
	epWhoAmI        = endpoint{http.MethodGet, "/api/whoami", CategoryNone, "", false, true}
	epProjects      = endpoint{http.MethodGet, "/api/v1/vault/workspace/projects", CategoryVault, permView, false, true}
	epProjectFiles  = endpoint{http.MethodGet, "/api/v1/vault/projects/{project_id}/files", CategoryVault, permVaultAPI, false, true}
	epProjectUsers  = endpoint{http.MethodGet, "/api/v1/vault/projects/{project_id}/users", CategoryVault, permSharing, false, true}
	epRecycleBin    = endpoint{http.MethodGet, "/api/v1/vault/workspace/recycle_bin", CategoryVault, permView, false, true}
	epGetFiles      = endpoint{http.MethodGet, "/api/v1/vault/get_files", CategoryVault, permVaultAPI, false, true}
	epUpload        = endpoint{http.MethodPost, "/api/v1/vault/upload_files/{project_id}", CategoryVault, permModify, false, false}
	epDeleteProject = endpoint{http.MethodDelete, "/api/v1/vault/delete_project/{project_id}", CategoryVault, permModify, false, false}
	epAuditEarliest = endpoint{http.MethodGet, "/api/v1/logs/audit/earliest", CategoryAudit, permAudit, false, true}
	epAuditList     = endpoint{http.MethodGet, "/api/v1/logs/audit", CategoryAudit, permAudit, false, true}
	// The spec calls repeating a deletion safe (rule 7); an upsert is not
	// declared so, and is never repeated automatically.
	epDeleteMatters = endpoint{http.MethodDelete, "/api/v2/matters", CategoryMatters, permMatters, true, true}
	epUpsertMatters = endpoint{http.MethodPost, "/api/v2/matters", CategoryMatters, permMatters, true, false}
)

// needs maps each permission sentence to whoami's names for it: every
// group is required, any one permission of a group satisfies it.
var needs = map[string][][]string{
	permVaultAPI: {{"Vault API"}},
	permView:     {{"View workspace projects"}},
	permModify:   {{"Vault API"}, {"Modify workspace projects"}},
	permSharing:  {{"Vault API"}, {"Vault sharing (view only)", "Vault sharing"}},
	permAudit:    {{"Territory admin", "Organization admin"}},
	permMatters:  {{"Client matters admin"}},
}
