package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// newLeaverEnv runs commands against the leaver's simulator with a token
// of that name ("admin", "vault-readonly").
func newLeaverEnv(t *testing.T) (*simtest.Env, func(token string, args ...string) run) {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Leaver: true, Control: true}})
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	return e, func(token string, args ...string) run {
		vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token(token), "VAULTDECK_BASE_URL": e.URL}
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
}

// directOf is every direct share of email, project name -> level, from
// the service's own listing.
func directOf(t *testing.T, e *simtest.Env, email string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ps, _, err := e.Client.Projects(apiProjectQuery()).Collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		ds, err := p.Sharing.Direct()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if strings.EqualFold(d.Email, email) {
				out[p.Name] = d.AccessLevel
			}
		}
	}
	return out
}

// TestOffboardingCarriedOut: the leaver's removal plan is refused until a
// new manager is named; applied, the leaver has no direct share left, the
// owned project has its new manager; a colleague's change after it is
// left alone by the undo and named, everything else is put back.
func TestOffboardingCarriedOut(t *testing.T) {
	e, vd := newLeaverEnv(t)
	who := e.Sim.Leaver()
	before := directOf(t, e, who)
	if len(before) < 4 {
		t.Fatalf("the leaver's direct shares: %v", before)
	}
	// the checklist names every project reached and how
	if r := vd("admin", "access", "crawl"); r.code != ExitOK {
		t.Fatalf("crawl: %d %q", r.code, r.stderr)
	}
	r := vd("admin", "person", who, "--offboarding")
	for _, want := range []string{sim.LeaverDirectManage + ",", "MANAGE, direct", "READ, inherited", "MANAGE, owner", "Firm Precedents Library"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the checklist has no %q:\n%s", want, r.stdout)
		}
	}
	if r := vd("admin", "access", "user", who); !strings.Contains(r.stdout, "direct") || !strings.Contains(r.stdout, "owner") || !strings.Contains(r.stdout, "inherited") {
		t.Errorf("access user does not say how: %q %q", r.stdout, r.stderr)
	}
	if r := vd("admin", "person", who, "--offboarding", "--plan"); r.code != ExitError || !strings.Contains(r.stderr, "--new-manager") {
		t.Errorf("person --offboarding --plan without a new manager: %d %q", r.code, r.stderr)
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	r = vd("admin", "access", "plan", "--remove", who, "--out", plan)
	if r.code != ExitError || !strings.Contains(r.stderr, "refused: it would leave 1 project without MANAGE: "+sim.LeaverProjectName) {
		t.Fatalf("a plan orphaning the leaver's project: %d %q", r.code, r.stderr)
	}
	if _, err := os.Stat(plan); err == nil {
		t.Fatal("a refused plan was written")
	}
	manager := colleagueOn(t, e.Sim, vd, sim.LeaverProjectName, who)
	r = vd("admin", "person", who, "--offboarding", "--plan", "--new-manager", manager, "--out", plan)
	if r.code != ExitOK {
		t.Fatalf("plan: %d %q", r.code, r.stderr)
	}
	// the plan's own CSV reads back as a --set file
	csvOut := vd("admin", "access", "plan", "--remove", who, "--new-manager", manager, "--csv")
	csvFile := filepath.Join(t.TempDir(), "plan.csv")
	if err := os.WriteFile(csvFile, []byte("\ufeff"+csvOut.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := vd("admin", "access", "plan", "--set", csvFile, "--json"); r.code != ExitOK || !strings.Contains(r.stdout, `"action": "remove"`) && !strings.Contains(r.stdout, `"action":"remove"`) {
		t.Fatalf("the plan's CSV read back: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("vault-readonly", "access", "apply", plan, "--yes"); r.code == ExitOK {
		t.Fatalf("a token without Vault sharing applied: %q", r.stdout)
	}
	if r := vd("admin", "access", "apply", plan); r.code != ExitUsage || !strings.Contains(r.stderr, "add --yes") {
		t.Fatalf("apply without a terminal or --yes: %d %q", r.code, r.stderr)
	}
	r = vd("admin", "access", "apply", plan, "--yes")
	// an unknown new manager is refused at plan time now
	// (TestNewManagerUnknownIsRefusedAtPlanTime): this one is known
	if r.code != ExitOK {
		t.Fatalf("apply: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if got := directOf(t, e, manager); got[sim.LeaverProjectName] != "MANAGE" {
		t.Errorf("the new manager's direct shares after the apply: %v", got)
	}
	if got := directOf(t, e, who); len(got) != 0 {
		t.Fatalf("after the apply the leaver still has %v", got)
	}
	// the same plan again: re-checked (its projects moved), and refused
	if r := vd("admin", "access", "apply", plan, "--yes"); r.code == ExitOK || !strings.Contains(r.stderr, "the service changed since the plan was made") {
		t.Fatalf("a stale plan: %d %q", r.code, r.stderr)
	}
	var ws string
	for _, p := range e.Sim.Projects() {
		if p.Name == sim.LeaverDirectManage {
			ws = p.ID
		}
	}
	if err := e.Sim.Share(ws, who, "READ"); err != nil {
		t.Fatal(err)
	}
	r = vd("admin", "access", "undo", "1", "--yes")
	if r.code != ExitError || !strings.Contains(r.stderr, "left alone: "+who+" on "+sim.LeaverDirectManage) {
		t.Fatalf("undo: %d %q %q", r.code, r.stdout, r.stderr)
	}
	after := directOf(t, e, who)
	for name, l := range before {
		want := l
		if name == sim.LeaverDirectManage {
			want = "READ" // the colleague's
		}
		if after[name] != want {
			t.Errorf("%s after the undo: %q, want %q", name, after[name], want)
		}
	}
	r = vd("admin", "access", "receipts", "--json")
	var jobs []store.WriteJob
	if err := json.Unmarshal([]byte(r.stdout), &jobs); err != nil || len(jobs) != 2 || jobs[0].UndoOf != 1 {
		t.Fatalf("receipts: %v %q", err, r.stdout)
	}
	if r := vd("admin", "access", "undo", "1", "--yes"); r.code != ExitError || !strings.Contains(r.stderr, "already undone") {
		t.Fatalf("a second undo: %d %q", r.code, r.stderr)
	}
	_ = time.Second
}

func apiProjectQuery() api.ProjectQuery { return api.ProjectQuery{} }
