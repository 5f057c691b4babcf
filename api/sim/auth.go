package sim

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// Permission names exactly as the workspace settings show them.
const (
	PermVaultAPI           = "Vault API"
	PermModifyProjects     = "Modify workspace projects"
	PermViewProjects       = "View workspace projects"
	PermVaultSharing       = "Vault sharing"
	PermVaultSharingView   = "Vault sharing (view only)"
	PermClientMattersAdmin = "Client matters admin"
	PermTerritoryAdmin     = "Territory admin"
	PermOrganizationAdmin  = "Organization admin"
)

// AllPermissions lists every permission in a stable order.
var allPermissions = []string{
	PermVaultAPI, PermModifyProjects, PermViewProjects, PermVaultSharing,
	PermVaultSharingView, PermClientMattersAdmin, PermTerritoryAdmin, PermOrganizationAdmin,
}

// AllPermissions returns every permission name in a stable order.
func AllPermissions() []string { return slices.Clone(allPermissions) }

// Token is one API token of the simulated workspace.
type Token struct {
	Name        string
	Value       string
	Permissions []string
	// UserEmail and UserName identify the service user behind the token
	// (whoami, deleted_by_user_email).
	UserEmail string
	UserName  string
	UserID    string
}

func (t *Token) has(p string) bool { return slices.Contains(t.Permissions, p) }

func without(ps ...string) []string {
	return slices.DeleteFunc(AllPermissions(), func(p string) bool { return slices.Contains(ps, p) })
}

// makeTokens derives the four fixed tokens from the seed, so a restarted
// `vaultdeck sim --seed N` hands out the same values (scripts can cache them).
func makeTokens(seed int64) []Token {
	rng := newRand(seed, 0x70c3)
	specs := []struct {
		name, email, uname string
		perms              []string
	}{
		{"admin", "m.castellano@harrowgate-law.com", "Marta Castellano", AllPermissions()},
		{"vault-readonly", "r.lindqvist@harrowgate-law.com", "Rasmus Lindqvist", []string{PermVaultAPI, PermViewProjects, PermVaultSharingView}},
		{"no-audit", "t.adeyemi@harrowgate-law.com", "Tolu Adeyemi", without(PermTerritoryAdmin, PermOrganizationAdmin)},
		{"no-matters", "h.brennan@harrowgate-law.com", "Hugh Brennan", without(PermClientMattersAdmin)},
	}
	out := make([]Token, 0, len(specs))
	for _, sp := range specs {
		out = append(out, Token{
			Name:        sp.name,
			Value:       fmt.Sprintf("vdsim_%s_%016x", strings.ReplaceAll(sp.name, "-", "_"), rng.Uint64()),
			Permissions: sp.perms,
			UserEmail:   sp.email,
			UserName:    sp.uname,
			UserID:      uuid4(rng),
		})
	}
	return out
}

// Tokens returns the simulator's tokens (copies).
func (s *Server) Tokens() []Token {
	out := make([]Token, len(s.tokens))
	for i, t := range s.tokens {
		t.Permissions = slices.Clone(t.Permissions)
		out[i] = t
	}
	return out
}

// Token returns the value of the named token ("admin", "vault-readonly",
// "no-audit", "no-matters"), or "" when there is no such token.
func (s *Server) Token(name string) string {
	for _, t := range s.tokens {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

func (s *Server) authenticate(r *http.Request) *Token {
	h := r.Header.Get("Authorization")
	v, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || v == "" {
		return nil
	}
	for i := range s.tokens {
		if s.tokens[i].Value == strings.TrimSpace(v) {
			s.mu.Lock()
			revoked := s.revoked[s.tokens[i].Name]
			s.mu.Unlock()
			if revoked {
				return nil // the service answers a revoked token as an unknown one
			}
			return &s.tokens[i]
		}
	}
	return nil
}

// Revoke makes every request with the named token a 401 until Restore, as
// an admin revoking it in the workspace's settings does; the other tokens
// go on. It reports whether the name is one of the simulator's tokens.
func (s *Server) Revoke(name string) bool { return s.setRevoked(name, true) }

// Restore gives a revoked token back.
func (s *Server) Restore(name string) bool { return s.setRevoked(name, false) }

func (s *Server) setRevoked(name string, on bool) bool {
	if s.Token(name) == "" {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.revoked == nil {
		s.revoked = map[string]bool{}
	}
	s.revoked[name] = on
	return true
}

// need describes an endpoint's permission rule: every permission in all,
// and at least one of any (when any is non-empty).
type need struct {
	all []string
	any []string
	// unauthorized makes a missing permission a 401 instead of a 403: the
	// matter endpoints treat a token without write:client_matters like an
	// invalid one (spec, errors table).
	unauthorized bool
}

// check returns "" when tok satisfies n, else the error sentence.
func (n need) check(tok *Token) string {
	for _, p := range n.all {
		if !tok.has(p) {
			return fmt.Sprintf("This token lacks the %q permission", p)
		}
	}
	if len(n.any) > 0 && !slices.ContainsFunc(n.any, tok.has) {
		quoted := make([]string, len(n.any))
		for i, p := range n.any {
			quoted[i] = fmt.Sprintf("%q", p)
		}
		return "This token lacks the " + strings.Join(quoted, " or ") + " permission"
	}
	return ""
}

var (
	needVaultAPI = need{all: []string{PermVaultAPI}}
	needView     = need{all: []string{PermViewProjects}}
	needModify   = need{all: []string{PermVaultAPI, PermModifyProjects}}
	needSharing  = need{all: []string{PermVaultAPI}, any: []string{PermVaultSharingView, PermVaultSharing}}
	needShare    = need{all: []string{PermVaultAPI, PermVaultSharing}} // changing sharing: not the view-only permission
	needAudit    = need{any: []string{PermTerritoryAdmin, PermOrganizationAdmin}}
	needMatters  = need{all: []string{PermClientMattersAdmin}, unauthorized: true}
)

type authedHandler func(w http.ResponseWriter, r *http.Request, tok *Token)

// guard authenticates, counts the request against its category's budget,
// then checks permissions. Counting before the permission check mirrors a
// per-workspace limiter that sits in front of the endpoints: every
// authenticated request costs budget, even one refused for permissions.
func (s *Server) guard(cat category, n need, h authedHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := s.authenticate(r)
		if tok == nil {
			writeError(w, http.StatusUnauthorized, "Unauthorized")
			return
		}
		if cat != catNone && !s.opts.NoRateLimit {
			s.mu.Lock()
			retry, ok := s.limiter.allow(cat, s.limitFor(cat), s.nowLocked())
			if !ok {
				s.limiter.refused[cat]++
			}
			s.mu.Unlock()
			if !ok {
				w.Header().Set("Retry-After", fmt.Sprint(retry))
				writeError(w, http.StatusTooManyRequests,
					fmt.Sprintf("Rate limit exceeded: %s allows %s per minute", cat, plural.Count(s.limitFor(cat), "request")))
				return
			}
		}
		if msg := n.check(tok); msg != "" {
			if n.unauthorized {
				writeError(w, http.StatusUnauthorized, "Unauthorized: "+msg+" (write:client_matters)")
			} else {
				writeError(w, http.StatusForbidden, msg)
			}
			return
		}
		h(w, r, tok)
	}
}

type whoami struct {
	UserID        string   `json:"user_id"`
	Email         string   `json:"email"`
	Name          string   `json:"name"`
	WorkspaceID   string   `json:"workspace_id"`
	WorkspaceName string   `json:"workspace_name"`
	TokenName     string   `json:"token_name"`
	Permissions   []string `json:"permissions"`
}

func (s *Server) handleWhoami(w http.ResponseWriter, r *http.Request, tok *Token) {
	s.mu.Lock()
	ws, wn := s.st.workspaceID, s.st.workspaceName
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, whoami{
		UserID: tok.UserID, Email: tok.UserEmail, Name: tok.UserName,
		WorkspaceID: ws, WorkspaceName: wn, TokenName: tok.Name,
		Permissions: tok.Permissions,
	})
}
