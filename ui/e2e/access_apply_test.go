package e2e

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestAccessApplySurvivesKill9: the leaver's offboarding through the
// built binary against `vaultdeck sim --leaver` at the real vault limit
// (10 a minute, so the apply waits for the budget part way): killed with
// SIGKILL once its second request was answered, `access apply --resume`
// finishes it; the service then shows exactly the plan (no direct share
// of the leaver left, the new manager on the owned project) and its audit
// log one sharing request per send of the plan, nothing twice.
func TestAccessApplySurvivesKill9(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--leaver")
	env := childEnv(t, nil, "VAULTDECK_HOME="+t.TempDir(), "VAULTDECK_TOKEN="+sp.tokens["admin"], "VAULTDECK_BASE_URL="+sp.base)
	c, err := api.New(api.Config{BaseURL: sp.base, Token: api.StaticToken(sp.tokens["admin"]), Limits: api.Limits{Vault: -1, Audit: -1}})
	if err != nil {
		t.Fatal(err)
	}
	leaver := leaverOf(t, c)
	plan := filepath.Join(t.TempDir(), "plan.json")
	// the new manager: someone who reads the leaver's own project
	manager := ""
	ps, _, err := c.Projects(api.ProjectQuery{}).Collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if strings.EqualFold(p.CreatorEmail, leaver) {
			users, _, err := c.ProjectUsers(p.ID).Collect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range users {
				if !strings.EqualFold(u.Email, leaver) && !strings.HasPrefix(u.Email, "m.castellano") {
					manager = u.Email
				}
			}
		}
	}
	if o, e, code := vd(t, bin, env, "", "access", "plan", "--remove", leaver, "--new-manager", manager, "--out", plan); code != 0 {
		t.Fatalf("plan: exit %d: %s %s", code, o, e)
	}
	cmd := exec.Command(bin, "access", "apply", plan, "--yes")
	cmd.Env = env
	seen := killAfterLine(t, cmd, "request 2/")
	o, e, code := vd(t, bin, env, "", "access", "apply", "--resume")
	if code != 0 || !strings.Contains(o, "complete") {
		t.Fatalf("resume: exit %d:\n%s\n%s\n(before the kill:\n%s)", code, o, e, seen)
	}
	// exactly the plan
	ps, _, err = c.Projects(api.ProjectQuery{}).Collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		ds, err := p.Sharing.Direct()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if strings.EqualFold(d.Email, leaver) {
				t.Errorf("after the resume the leaver still has %s on %s", d.AccessLevel, p.Name)
			}
			if strings.EqualFold(d.Email, manager) && strings.EqualFold(p.CreatorEmail, leaver) && d.AccessLevel != api.AccessManage {
				t.Errorf("the new manager has %s on %s", d.AccessLevel, p.Name)
			}
		}
	}
	// nothing twice: one audit entry a request, six requests in the plan
	n := 0
	_, err = c.Audit(api.AuditQuery{}).Each(context.Background(), func(e *api.AuditEntry, _ api.RawItem) error {
		if string(e.Type) == "api:vault_update_project_users" || string(e.Type) == "api:vault_remove_project_users" {
			n++
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Fatalf("%d sharing requests reached the service, want the plan's 6 (five removals and the new manager), once each", n)
	}
}

// leaverOf is the owner of the leaver's project, as the listing names it.
func leaverOf(t *testing.T, c *api.Client) string {
	t.Helper()
	ps, _, err := c.Projects(api.ProjectQuery{Name: "Ironbridge Capital"}).Collect(context.Background())
	if err != nil || len(ps) != 1 {
		t.Fatalf("the leaver's project: %v %d", err, len(ps))
	}
	return ps[0].CreatorEmail
}
