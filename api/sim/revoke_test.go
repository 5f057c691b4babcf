package sim_test

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestRevokeAndRestoreAToken: POST /_sim/revoke {"token":"admin"} makes
// every request with that token a 401, as the service answers a revoked
// token (whoami and the audit log included), while the other tokens go on;
// /_sim/restore gives it back. An unknown name is a 400.
func TestRevokeAndRestoreAToken(t *testing.T) {
	h := newHarness(t, func(o *sim.Options) { o.Control = true })
	post := func(op, body string) response { return h.do("POST", "/_sim/"+op, "", body) }
	ro := h.sim.Token("vault-readonly")
	mustStatus(t, h.get("/api/whoami"), 200)
	mustStatus(t, post("revoke", `{"token":"admin"}`), 200)
	mustStatus(t, h.get("/api/whoami"), 401)
	mustStatus(t, h.get("/api/v1/logs/audit/latest"), 401)
	mustStatus(t, h.do("GET", "/api/whoami", ro, nil), 200)
	mustStatus(t, post("restore", `{"token":"admin"}`), 200)
	mustStatus(t, h.get("/api/whoami"), 200)
	mustStatus(t, h.get("/api/v1/logs/audit/latest"), 200)
	mustStatus(t, post("revoke", `{"token":"nobody"}`), 400)
	mustStatus(t, post("revoke", `{}`), 400)
}
