package audit_test

import (
	"context"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
)

type whoStub struct {
	audit.Service // nil: only WhoAmI and Base are called
	w             api.WhoAmI
}

func (s whoStub) WhoAmI(context.Context) (*api.WhoAmI, error) { return &s.w, nil }
func (s whoStub) Base() string                                { return "https://api.example" }

// TestLogOfWithoutAWorkspaceID: whoami's shape is not documented; the
// mirror's key falls back from the workspace id to the token's user, and
// with neither it refuses rather than mix two workspaces' logs.
func TestLogOfWithoutAWorkspaceID(t *testing.T) {
	for _, tc := range []struct {
		w    api.WhoAmI
		want string
	}{
		{api.WhoAmI{WorkspaceID: "w1", Email: "a@b"}, "https://api.example|w1"},
		{api.WhoAmI{Email: "Svc@Firm.com"}, "https://api.example|user:svc@firm.com"},
		{api.WhoAmI{}, ""},
	} {
		got, _, err := audit.LogOf(context.Background(), whoStub{w: tc.w})
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("%+v: %q, %v", tc.w, got, err)
		}
	}
}
