package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/accountcmd"
)

// Issue 29.6's neighbour: vaultdeck login said "The token was not accepted
// by …" when the service could not be reached, as the SSH login screen
// did. It names the failure the check met (api.CheckFailure).
func TestLoginSaysWhichFailure(t *testing.T) {
	h := newHarness(t)
	h.env.Verify = func(context.Context, store.Profile, string) (accountcmd.Verified, error) {
		return accountcmd.Verified{}, &api.Error{Kind: api.KindNetwork, Endpoint: "GET /api/whoami", Message: "dial tcp: connection refused"}
	}
	if code := h.run(Login, "good_token\n"); code != ExitError {
		t.Fatalf("exit %d", code)
	}
	if e := h.err.String(); !strings.Contains(e, "could not be reached") || strings.Contains(e, "not accepted") || !strings.Contains(e, "Nothing was saved") {
		t.Errorf("stderr: %s", e)
	}
}
