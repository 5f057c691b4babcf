package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestLoginVerifierSendsTheToken: the verifier Std gives `vaultdeck login`
// asks whoami with the token being checked (the account tests use a fake
// verifier, so only this one talks to a service), and a wrong token is
// refused.
func TestLoginVerifierSendsTheToken(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1}})
	p := store.Profile{Name: "simp", BaseURL: e.URL}
	who, err := verifyToken(context.Background(), p, e.Token("admin"))
	if err != nil || !strings.Contains(who.Who, "<") || who.WorkspaceID == "" {
		t.Fatalf("the simulator's admin token: %q, %v", who, err)
	}
	if _, err := verifyToken(context.Background(), p, "vdsim_not_a_token_0000"); err == nil {
		t.Fatal("a token the service does not know was accepted")
	}
}
