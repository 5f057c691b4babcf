package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// colleagueOn is someone the snapshot shows on the project named, not
// the leaver: a workspace user the service knows.
func colleagueOn(t *testing.T, e interface{ Projects() []sim.ProjectInfo }, vd func(string, ...string) run, project, not string) string {
	t.Helper()
	var id string
	for _, p := range e.Projects() {
		if p.Name == project {
			id = p.ID
		}
	}
	var grants []store.AccessGrant
	r := vd("admin", "access", "project", id, "--json")
	if err := json.Unmarshal([]byte(r.stdout), &grants); err != nil {
		t.Fatalf("access project: %v %q", err, r.stderr)
	}
	for _, g := range grants {
		if !strings.EqualFold(g.Email, not) && !strings.HasPrefix(g.Email, "m.castellano") {
			return g.Email
		}
	}
	t.Fatalf("nobody but %s on %s", not, project)
	return ""
}

// TestNewManagerUnknownIsRefusedAtPlanTime: a --new-manager nobody on the
// service or in the snapshot is refused when the plan is made (exit 1,
// nothing written), not at apply after the removals went.
func TestNewManagerUnknownIsRefusedAtPlanTime(t *testing.T) {
	e, slow := newLeaverEnv(t)
	vd := fast(slow)
	who := e.Sim.Leaver()
	if r := vd("admin", "access", "crawl"); r.code != ExitOK {
		t.Fatalf("crawl: %d %q", r.code, r.stderr)
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	r := vd("admin", "access", "plan", "--remove", who, "--new-manager", "nobody@example.com", "--out", plan)
	if r.code != ExitError || !strings.Contains(r.stderr, "nobody@example.com") || !strings.Contains(r.stderr, "not a user") {
		t.Fatalf("an unknown new manager: %d %q", r.code, r.stderr)
	}
	if r := vd("admin", "access", "plan", "--remove", who, "--new-manager", who); r.code != ExitError || !strings.Contains(r.stderr, "is the person leaving") {
		t.Fatalf("the leaver as their own new manager: %d %q", r.code, r.stderr)
	}
	manager := colleagueOn(t, e.Sim, vd, sim.LeaverProjectName, who)
	if r := vd("admin", "access", "plan", "--remove", who, "--new-manager", strings.ToUpper(manager), "--out", plan); r.code != ExitOK {
		t.Fatalf("a known new manager: %d %q", r.code, r.stderr)
	}
}

// TestCopyGivesANewJoinerAColleaguesDirectAccess: --copy FROM --to NEW,
// applied, leaves NEW with exactly FROM's direct shares, level for level;
// the receipt's undo puts NEW back as it was.
func TestCopyGivesANewJoinerAColleaguesDirectAccess(t *testing.T) {
	e, slow := newLeaverEnv(t)
	vd := fast(slow)
	from := e.Sim.Leaver()
	if r := vd("admin", "access", "crawl"); r.code != ExitOK {
		t.Fatalf("crawl: %d %q", r.code, r.stderr)
	}
	to := colleagueOn(t, e.Sim, vd, sim.LeaverProjectName, from)
	want, before := directOf(t, e, from), directOf(t, e, to)
	plan := filepath.Join(t.TempDir(), "copy.json")
	if r := vd("admin", "access", "plan", "--copy", from, "--to", to, "--out", plan); r.code != ExitOK {
		t.Fatalf("plan --copy: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("admin", "access", "apply", plan, "--yes"); r.code != ExitOK {
		t.Fatalf("apply: %d %q %q", r.code, r.stdout, r.stderr)
	}
	got := directOf(t, e, to)
	for name, l := range want {
		if got[name] != l {
			t.Errorf("%s: the joiner has %q directly, the colleague %q", name, got[name], l)
		}
	}
	for name, l := range got {
		if _, ok := want[name]; !ok && before[name] != l {
			t.Errorf("%s: the joiner gained %q the colleague has not", name, l)
		}
	}
	if r := vd("admin", "access", "undo", "1", "--yes"); r.code != ExitOK {
		t.Fatalf("undo: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if after := directOf(t, e, to); !sameShares(after, before) {
		t.Errorf("after the undo the joiner has %v, before the copy %v", after, before)
	}
}

// TestRevertPutsBackWhatChanged: a snapshot, then the leaver's direct
// shares removed outside vaultdeck's plan (a colleague in the web app: the
// simulator's control); --revert 1, applied, puts back every level the
// leaver had at the snapshot.
func TestRevertPutsBackWhatChanged(t *testing.T) {
	e, slow := newLeaverEnv(t)
	vd := fast(slow)
	who := e.Sim.Leaver()
	if r := vd("admin", "access", "crawl"); r.code != ExitOK {
		t.Fatalf("crawl: %d %q", r.code, r.stderr)
	}
	before := directOf(t, e, who)
	var changed string
	for _, p := range e.Sim.Projects() {
		if p.Name == sim.LeaverDirectManage {
			changed = p.ID
		}
	}
	if err := e.Sim.Share(changed, who, "READ"); err != nil { // MANAGE lowered to READ since the snapshot
		t.Fatal(err)
	}
	if got := directOf(t, e, who); got[sim.LeaverDirectManage] != "READ" {
		t.Fatalf("the change did not take: %v", got)
	}
	plan := filepath.Join(t.TempDir(), "revert.json")
	r := vd("admin", "access", "plan", "--revert", "1", "--out", plan)
	if r.code != ExitOK || !strings.Contains(r.stdout, "raise") {
		t.Fatalf("plan --revert: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("admin", "access", "apply", plan, "--yes"); r.code != ExitOK {
		t.Fatalf("apply: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if after := directOf(t, e, who); !sameShares(after, before) {
		t.Errorf("after the revert the leaver has %v, at the snapshot %v", after, before)
	}
}

// fast lifts the client's vault budget (10 a minute) for a simulator on
// this machine, as TestAccessCommands does: the pacing is not under test.
func fast(vd func(string, ...string) run) func(string, ...string) run {
	return func(token string, args ...string) run {
		return vd(token, append([]string{"--max-rate", "100000"}, args...)...)
	}
}

func sameShares(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
