package account

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/api/token/tokentest"
	"github.com/vaultdeck/vaultdeck/store"
)

// Every endpoint that needs a permission belongs to exactly one feature,
// so a token's lack is never left unsaid.
func TestEveryEndpointBelongsToAFeature(t *testing.T) {
	for _, r := range api.Requirements() {
		var in []string
		for _, f := range Features() {
			if slices.ContainsFunc(f.Prefixes, func(p string) bool { return strings.HasPrefix(r.Endpoint, p) }) {
				in = append(in, f.Name)
			}
		}
		if len(in) != 1 {
			t.Errorf("%s belongs to %d features %q, want one", r.Endpoint, len(in), in)
		}
	}
}

// profiles --check against the simulator's four tokens, a revoked one, a
// profile with none and one whose token answers for another workspace.
func TestCheckProfilesAgainstTheSimulator(t *testing.T) {
	sim := simtest.Start(t, simtest.Options{})
	home := t.TempDir()
	kr := tokentest.NewMemoryKeyring()
	e := Env{Getenv: env(map[string]string{"VAULTDECK_HOME": home}), Keyring: kr}
	st, err := store.Open(filepath.Join(home, "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	paths, _ := e.Paths()
	if paths.Database() != filepath.Join(home, "vaultdeck.db") {
		t.Fatalf("the test's store is not the Env's: %s", paths.Database())
	}
	who, err := sim.Client.WhoAmI(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	save := func(name, tok string, mod func(*store.Profile)) {
		p := store.Profile{Name: name, BaseURL: sim.URL, TokenStorage: store.StorageKeyring, WorkspaceID: who.WorkspaceID, WorkspaceName: who.WorkspaceName}
		if mod != nil {
			mod(&p)
		}
		if err := st.SaveProfile(p); err != nil {
			t.Fatal(err)
		}
		if tok != "" {
			kr.Set(token.Service, name, tok)
		}
	}
	save("admin", sim.Token("admin"), nil)
	save("reader", sim.Token("vault-readonly"), nil)
	save("nomatters", sim.Token("no-matters"), nil)
	save("revoked", "vdsim_revoked_0000000000000000", nil)
	save("empty", "", nil)
	save("elsewhere", sim.Token("admin"), func(p *store.Profile) { p.WorkspaceID, p.WorkspaceName = "ws-other", "Other LLP" })

	var told []string
	got, err := CheckProfiles(context.Background(), e, st, Shared{}, func(s string) { told = append(told, s) })
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]ProfileStatus{}
	for _, s := range got {
		by[s.Profile] = s
	}
	if len(by) != 6 {
		t.Fatalf("checked %d profiles, want 6: %+v", len(by), got)
	}
	a := by["admin"]
	if a.Problem != "" || a.Source != token.KindKeyring || a.Email != "m.castellano@harrowgate-law.com" || a.WorkspaceID != who.WorkspaceID || len(a.Lacks) != 0 {
		t.Errorf("admin: %+v", a)
	}
	r := by["reader"]
	feats := func(ls []Lack) (out []string) {
		for _, l := range ls {
			out = append(out, l.Feature)
		}
		return out
	}
	if r.Problem != "" || !slices.Equal(feats(r.Lacks), []string{"changing who a project is shared with", "upload, deleting files and projects", "audit, person, access", "matters"}) {
		t.Errorf("reader lacks %q (problem %q)", feats(r.Lacks), r.Problem)
	}
	if l := r.Lacks[2]; !slices.Equal(l.Permissions, []string{"Territory admin or Organization admin"}) {
		t.Errorf("reader's audit lack: %q", l.Permissions)
	}
	if n := by["nomatters"]; n.Problem != "" || !slices.Equal(feats(n.Lacks), []string{"matters"}) ||
		!slices.Equal(n.Lacks[0].Permissions, []string{"Client matters admin"}) {
		t.Errorf("nomatters: %+v", n)
	}
	if p := by["revoked"].Problem; !strings.Contains(p, "rejected (401)") || strings.Contains(p, "vdsim_revoked") {
		t.Errorf("revoked: %q", p)
	}
	if p := by["empty"].Problem; !strings.Contains(p, "no token") {
		t.Errorf("empty: %q", p)
	}
	if p := by["elsewhere"].Problem; !strings.Contains(p, `"Other LLP"`) || !strings.Contains(p, "vaultdeck login --profile elsewhere") {
		t.Errorf("elsewhere: %q", p)
	}
	if !slices.Contains(told, sim.Token("admin")) || !slices.Contains(told, "vdsim_revoked_0000000000000000") {
		t.Error("the tokens read were not all handed to tell, for redaction")
	}

	// VAULTDECK_TOKEN supplies every profile's token: the check says so.
	e.Getenv = env(map[string]string{"VAULTDECK_HOME": home, token.EnvVar: sim.Token("no-audit")})
	got, _ = CheckProfiles(context.Background(), e, st, Shared{}, nil)
	for _, s := range got {
		if s.Source != token.KindEnv {
			t.Errorf("%s: source %q under VAULTDECK_TOKEN", s.Profile, s.Source)
		}
	}
}
