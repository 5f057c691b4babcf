package sim_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

func TestPermissions(t *testing.T) {
	h := newHarness(t)
	pid := h.projectByName("Bellhaven Shipping — Share Purchase").ID
	endpoints := map[string]struct{ method, path, body string }{
		"matters-delete": {"DELETE", "/api/v2/matters", `{"matters":[{"client_id":"x","matter_id":"y"}]}`},
		"matters-upsert": {"POST", "/api/v2/matters", `{"matters":[{"client_id":"x","matter_id":"y"}]}`},
		"recycle":        {"GET", "/api/v1/vault/workspace/recycle_bin", ""},
		"projects":       {"GET", "/api/v1/vault/workspace/projects", ""},
		"files":          {"GET", "/api/v1/vault/projects/" + pid + "/files", ""},
		"get_files":      {"GET", "/api/v1/vault/get_files?file_ids=x", ""},
		"users":          {"GET", "/api/v1/vault/projects/" + pid + "/users", ""},
		"upload":         {"POST", "/api/v1/vault/upload_files/" + pid, ""},
		"delete_project": {"DELETE", "/api/v1/vault/delete_project/00000000-0000-4000-8000-000000000000", ""},
		"earliest":       {"GET", "/api/v1/logs/audit/earliest", ""},
		"audit":          {"GET", "/api/v1/logs/audit?from=00000000-0000-7000-8000-000000000000&take=1", ""},
		"whoami":         {"GET", "/api/whoami", ""},
	}
	cases := []struct {
		token, endpoint string
		want            int
		mention         string // text the error must contain
	}{
		{"", "whoami", 401, "Unauthorized"},
		{"bogus", "recycle", 401, "Unauthorized"},
		{"", "matters-delete", 401, "Unauthorized"},
		{"admin", "whoami", 200, ""},
		{"admin", "upload", 400, ""}, // permitted; fails on the empty body
		{"admin", "delete_project", 404, ""},
		{"no-matters", "matters-delete", 401, sim.PermClientMattersAdmin},
		{"no-matters", "matters-upsert", 401, sim.PermClientMattersAdmin},
		{"vault-readonly", "matters-delete", 401, ""},
		{"no-matters", "recycle", 200, ""},
		{"vault-readonly", "recycle", 200, ""},
		{"vault-readonly", "projects", 200, ""},
		{"vault-readonly", "files", 200, ""},
		{"vault-readonly", "get_files", 200, ""},
		{"vault-readonly", "users", 200, ""},
		{"vault-readonly", "upload", 403, sim.PermModifyProjects},
		{"vault-readonly", "delete_project", 403, sim.PermModifyProjects},
		{"vault-readonly", "earliest", 403, sim.PermTerritoryAdmin},
		{"no-audit", "earliest", 403, sim.PermOrganizationAdmin},
		{"no-audit", "audit", 403, sim.PermTerritoryAdmin},
		{"no-audit", "matters-delete", 200, ""},
		{"no-matters", "earliest", 200, ""},
	}
	for _, c := range cases {
		t.Run(c.token+"/"+c.endpoint, func(t *testing.T) {
			e := endpoints[c.endpoint]
			tok := h.sim.Token(c.token)
			if c.token == "bogus" {
				tok = "vdsim_admin_0000000000000000"
			}
			var b any
			if e.body != "" {
				b = e.body
			}
			r := h.do(e.method, e.path, tok, b)
			mustStatus(t, r, c.want)
			if c.mention != "" && !strings.Contains(string(r.body), c.mention) {
				t.Fatalf("body %s does not name %q", r.body, c.mention)
			}
			if r.status >= 400 && !strings.HasPrefix(string(r.body), `{"error":`) {
				t.Fatalf("error body %s", r.body)
			}
		})
	}
}

func TestVaultSharingDisabled(t *testing.T) {
	h := newHarness(t)
	pid := h.projectByName("Bellhaven Shipping — Share Purchase").ID
	h.sim.SetVaultSharing(false)
	r := h.get("/api/v1/vault/projects/" + pid + "/users")
	mustStatus(t, r, 403)
	if !strings.Contains(string(r.body), "sharing") {
		t.Fatal(string(r.body))
	}
	mustStatus(t, h.do("POST", "/_sim/vault_sharing", "", `{"enabled":true}`), 200)
	mustStatus(t, h.get("/api/v1/vault/projects/"+pid+"/users"), 200)
}

func TestWhoami(t *testing.T) {
	h := newHarness(t)
	var w struct {
		Email       string   `json:"email"`
		TokenName   string   `json:"token_name"`
		Permissions []string `json:"permissions"`
	}
	h.get("/api/whoami").json(t, &w)
	if w.Email != "m.castellano@harrowgate-law.com" || w.TokenName != "admin" || len(w.Permissions) != 8 {
		t.Fatalf("%+v", w)
	}
}

func TestRateLimits(t *testing.T) {
	cases := []struct {
		name   string
		limits sim.Limits
		path   func(h *harness) (method, path string, body any)
		limit  int
	}{
		{"vault default 10", sim.Limits{}, func(h *harness) (string, string, any) {
			return "GET", "/api/v1/vault/workspace/recycle_bin", nil
		}, 10},
		{"audit default 60", sim.Limits{}, func(h *harness) (string, string, any) {
			return "GET", "/api/v1/logs/audit/earliest", nil
		}, 60},
		{"matters default 150", sim.Limits{}, func(h *harness) (string, string, any) {
			return "DELETE", "/api/v2/matters", body(pair{"x", "y"})
		}, 150},
		{"configured vault 3", sim.Limits{Vault: 3}, func(h *harness) (string, string, any) {
			return "GET", "/api/v1/vault/get_files?file_ids=x", nil
		}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, func(o *sim.Options) { o.NoRateLimit = false; o.Limits = c.limits })
			m, p, b := c.path(h)
			for i := 0; i < c.limit; i++ {
				if r := h.do(m, p, h.admin(), b); r.status == 429 {
					t.Fatalf("request %d limited", i+1)
				}
				h.sim.Advance(100 * time.Millisecond)
			}
			r := h.do(m, p, h.admin(), b)
			mustStatus(t, r, 429)
			ra, err := strconv.Atoi(r.header.Get("Retry-After"))
			if err != nil || ra < 1 || ra > 60 {
				t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
			}
			if !strings.Contains(string(r.body), `"error":"Rate limit exceeded`) {
				t.Fatal(string(r.body))
			}
			// whoami is never limited.
			mustStatus(t, h.get("/api/whoami"), 200)
			h.sim.Advance(time.Duration(ra) * time.Second)
			if r := h.do(m, p, h.admin(), b); r.status == 429 {
				t.Fatalf("window not freed after Retry-After: %s", r.body)
			}
		})
	}
}

func TestMatterLimitSharedAndNoRateLimit(t *testing.T) {
	h := newHarness(t, func(o *sim.Options) { o.NoRateLimit = false; o.Limits = sim.Limits{Matters: 4} })
	for i := 0; i < 2; i++ {
		h.deleteMatters(pair{"a", "b"})
		h.upsert(pair{"a", "b"})
	}
	mustStatus(t, h.do("POST", "/api/v2/matters", h.admin(), body(pair{"a", "b"})), 429)
	// Other categories are independent.
	mustStatus(t, h.get("/api/v1/logs/audit/earliest"), 200)

	free := newHarness(t) // NoRateLimit
	for i := 0; i < 30; i++ {
		mustStatus(t, free.get("/api/v1/vault/workspace/recycle_bin?name=zzz"), 200)
	}
}
