package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
)

// `profiles --check` (gh auth status): whoami for every profile through
// the command line, against the simulator's tokens; exit 1 when one fails.
func TestProfilesCheckAgainstTheSimulator(t *testing.T) {
	e := simtest.Start(t, simtest.Options{})
	h := newHarness(t)
	who, err := e.Client.WhoAmI(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := h.store()
	for _, p := range []struct{ name, tok string }{{"admin", e.Token("admin")}, {"reader", e.Token("vault-readonly")}} {
		if err := st.SaveProfile(store.Profile{Name: p.name, BaseURL: e.URL, TokenStorage: store.StorageKeyring,
			WorkspaceID: who.WorkspaceID, WorkspaceName: who.WorkspaceName}); err != nil {
			t.Fatal(err)
		}
		h.kr.Set(token.Service, p.name, p.tok)
	}

	if code := h.run(Profiles, "", "--check"); code != ExitOK {
		t.Fatalf("profiles --check with two working profiles: exit %d\n%s%s", code, h.out.String(), h.err.String())
	}
	out := h.out.String()
	for _, want := range []string{"admin", "m.castellano@harrowgate-law.com", "the system keyring", who.WorkspaceName,
		"reader", "cannot use audit, person, access: lacks Territory admin or Organization admin", "2 profiles work"} {
		if !strings.Contains(out, want) {
			t.Errorf("profiles --check lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, e.Token("admin")) || strings.Contains(out, e.Token("vault-readonly")) {
		t.Fatal("a token was printed")
	}

	// A revoked token fails the check: exit 1, the profile named.
	if err := st.SaveProfile(store.Profile{Name: "revoked", BaseURL: e.URL, TokenStorage: store.StorageKeyring}); err != nil {
		t.Fatal(err)
	}
	h.kr.Set(token.Service, "revoked", "vdsim_revoked_0000000000000000")
	if code := h.run(Profiles, "", "--check"); code != ExitError {
		t.Errorf("profiles --check with a revoked token: exit %d, want 1\n%s", code, h.out.String())
	}
	if out := h.out.String() + h.err.String(); !strings.Contains(out, "rejected (401)") || !strings.Contains(out, "1 of 3 profiles failed") ||
		strings.Contains(out, "vdsim_revoked") {
		t.Errorf("the revoked profile's failure:\n%s", out)
	}

	if code := h.run(Profiles, "", "--check", "--json"); code != ExitError {
		t.Errorf("profiles --check --json: exit %d, want 1", code)
	}
	var recs []struct {
		Name, Problem string
		OK            bool   `json:"ok"`
		Source        string `json:"token_source"`
		Email         string `json:"email"`
		Workspace     string `json:"workspace_id"`
		Lacks         []struct {
			Feature     string
			Permissions []string
		}
	}
	if err := json.Unmarshal(h.out.Bytes(), &recs); err != nil {
		t.Fatalf("profiles --check --json is not JSON (%v): %q", err, h.out.String())
	}
	if len(recs) != 3 || !recs[0].OK || recs[0].Source != "keyring" || recs[0].Workspace != who.WorkspaceID ||
		recs[1].Name != "reader" || len(recs[1].Lacks) != 4 || recs[2].OK || recs[2].Problem == "" {
		t.Errorf("profiles --check --json: %+v", recs)
	}
}
