package change_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/writejobtest"
	"github.com/vaultdeck/vaultdeck/store"
)

var pinned = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func leaverSim(t testing.TB) *simtest.Env {
	return simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Now: func() time.Time { return pinned }, NoRateLimit: true, Leaver: true, Control: true}})
}

// removal is the leaver's removal plan, read against the service now,
// with manager named as the new manager where one is needed ("" none).
func removal(t testing.TB, c change.API, who, manager string) *change.Plan {
	t.Helper()
	ctx := context.Background()
	projects, order, err := change.Listing(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	wants := change.RemoveWants(projects, order, who, nil)
	if err := change.Read(ctx, c, projects, wants, nil); err != nil {
		t.Fatal(err)
	}
	p, err := change.Make("--remove "+who, pinned, projects, wants, []string{who})
	if err != nil {
		t.Fatal(err)
	}
	if manager != "" && len(p.Refused) > 0 {
		wants = append(wants, change.ManagerWants(p, manager)...)
		if err := change.Read(ctx, c, projects, wants, nil); err != nil {
			t.Fatal(err)
		}
		if p, err = change.Make("--remove "+who, pinned, projects, wants, []string{who}); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func rowsOf(p *change.Plan) map[string]change.Row {
	out := map[string]change.Row{}
	for _, r := range p.Rows {
		out[r.ProjectName+" "+strings.ToLower(r.Email)] = r
	}
	return out
}

// TestRemovalPlanOfTheLeaver: every direct share becomes a remove row;
// the owned project is an owner row and refused until a new manager is
// named; the workspace-shared one says its inherited access stays.
func TestRemovalPlanOfTheLeaver(t *testing.T) {
	e := leaverSim(t)
	who := e.Sim.Leaver()
	p := removal(t, e.Client, who, "")
	rows := rowsOf(p)
	if r := rows[sim.LeaverProjectName+" "+who]; r.Action != change.Owner {
		t.Errorf("the leaver's own project: %+v, want an owner row", r)
	}
	if r := rows[sim.LeaverDirectManage+" "+who]; r.Action != change.Remove || r.Direct != "MANAGE" {
		t.Errorf("direct MANAGE: %+v", r)
	}
	if r := rows[sim.LeaverWorkspaceShared+" "+who]; r.Action != change.Remove || !strings.Contains(r.Note, "workspace") {
		t.Errorf("the workspace-shared project: %+v, want a removal saying the inherited access stays", r)
	}
	if p.Count() != 5 {
		t.Errorf("%d changes, want the 5 direct shares: %+v", p.Count(), p.Rows)
	}
	if len(p.Refused) != 1 || !strings.Contains(p.Refused[0], sim.LeaverProjectName) {
		t.Fatalf("refused %v, want the leaver's own project (nobody else has MANAGE)", p.Refused)
	}
	// With a new manager named, nothing is refused and the plan raises them.
	var manager string
	for _, r := range p.Rows {
		if r.ProjectName == sim.LeaverProjectName {
			continue
		}
	}
	manager = someoneWithout(t, e, p, who)
	q := removal(t, e.Client, who, manager)
	if len(q.Refused) != 0 || q.Count() != 6 {
		t.Fatalf("with %s as the new manager: refused %v, %d changes", manager, q.Refused, q.Count())
	}
	if r := rowsOf(q)[sim.LeaverProjectName+" "+manager]; r.To != "MANAGE" || !change.Changes(r.Action) {
		t.Errorf("the new manager's row %+v", r)
	}
}

// someoneWithout is a workspace user other than who and the token's user.
func someoneWithout(t testing.TB, e *simtest.Env, p *change.Plan, who string) string {
	t.Helper()
	users, _, err := e.Client.ProjectUsers(p.Projects[0].ID).Collect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	self := e.Sim.Tokens()[0].UserEmail
	for _, u := range users {
		if !strings.EqualFold(u.Email, who) && !strings.EqualFold(u.Email, self) {
			return u.Email
		}
	}
	t.Fatal("nobody else")
	return ""
}

// TestPlanRowsSayWhatTheyDo: add, raise, lower, nothing, inherited and
// owner from one CSV, BOM and all; a bad line is named.
func TestPlanRowsSayWhatTheyDo(t *testing.T) {
	e := leaverSim(t)
	ctx := context.Background()
	projects, _, err := change.Listing(ctx, e.Client)
	if err != nil {
		t.Fatal(err)
	}
	var ws, other *change.Project
	for _, p := range projects {
		switch p.Name {
		case sim.LeaverWorkspaceShared:
			ws = p
		case sim.LeaverDirectManage:
			other = p
		}
	}
	if err := change.ReadUsers(ctx, e.Client, ws); err != nil {
		t.Fatal(err)
	}
	var direct, inherited string
	var directLevel string
	for k, d := range ws.Direct {
		if direct == "" || k < direct {
			direct, directLevel = k, d.AccessLevel
		}
	}
	for k, u := range ws.Users {
		if _, ok := ws.Direct[k]; !ok && k != strings.ToLower(ws.Owner) && (inherited == "" || k < inherited) {
			inherited = u.Email
		}
	}
	flip := map[string]string{"READ": "MANAGE", "MANAGE": "READ"}[directLevel]
	csv := "\ufeffPROJECT ID,EMAIL,LEVEL\n" +
		ws.ID + "," + direct + "," + flip + "\n" +
		ws.ID + "," + direct + "," + flip + "\n" + // the same twice: one row
		ws.ID + "," + inherited + ",none\n" +
		ws.ID + "," + inherited + ",MANAGE\n" +
		ws.ID + "," + ws.Owner + ",READ\n" +
		other.ID + "," + inherited + ",read\n"
	wants, err := change.CSVWants([]byte(csv))
	if err != nil {
		t.Fatal(err)
	}
	if len(wants) != 6 {
		t.Fatalf("%d wants", len(wants))
	}
	if _, err := change.Make("--set", pinned, projects, wants[:4], nil); err == nil {
		t.Fatal("a project whose users were not read was planned")
	}
	if err := change.Read(ctx, e.Client, projects, wants, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := change.Make("--set", pinned, projects, wants, nil); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("the same person wanted none and MANAGE: %v", err)
	}
	wants = slices.Delete(wants, 3, 4)
	p, err := change.Make("--set", pinned, projects, wants, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range p.Rows {
		got[strings.ToLower(r.Email)+"@"+r.ProjectName] = r.Action
	}
	want := map[string]string{
		direct + "@" + ws.Name:                        map[string]string{"MANAGE": change.Raise, "READ": change.Lower}[flip],
		strings.ToLower(inherited) + "@" + ws.Name:    change.Inherited,
		strings.ToLower(ws.Owner) + "@" + ws.Name:     change.Owner,
		strings.ToLower(inherited) + "@" + other.Name: change.Add,
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows %v\nwant %v", got, want)
	}
	for name, bad := range map[string]string{
		"no level column": "PROJECT ID,EMAIL\nx,a@x\n",
		"a bad level":     "project_id,email,access_level\nx,a@x,OWNER\n",
		"no e-mail":       "project_id,email,access_level\nx,,READ\n",
	} {
		if _, err := change.CSVWants([]byte(bad)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// world is the fault walk's view of the leaver's offboarding: the plan
// removes every direct share and names a new manager for the project
// only the leaver manages; applied, the leaver has no direct share and
// the manager has MANAGE; undone, every direct share is as it was.
type world struct {
	t     *testing.T
	e     *simtest.Env
	who   string
	start map[string]map[string]string // project -> email -> direct level
	want  map[string]map[string]string
}

func directNow(t testing.TB, c change.API) map[string]map[string]string {
	t.Helper()
	projects, _, err := change.Listing(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for id, p := range projects {
		out[id] = map[string]string{}
		for k, d := range p.Direct {
			out[id][k] = d.AccessLevel
		}
	}
	return out
}

func (w *world) Fresh(t *testing.T) (writejob.Kind, *writejob.Plan) {
	w.t = t
	w.e = leaverSim(t)
	w.who = w.e.Sim.Leaver()
	w.start = directNow(t, w.e.Client)
	p := removal(t, w.e.Client, w.who, "")
	manager := someoneWithout(t, w.e, p, w.who)
	p = removal(t, w.e.Client, w.who, manager)
	w.want = directNow(t, w.e.Client)
	for _, r := range p.Rows {
		if change.Changes(r.Action) {
			if r.To == "" {
				delete(w.want[r.ProjectID], strings.ToLower(r.Email))
			} else {
				w.want[r.ProjectID][strings.ToLower(r.Email)] = r.To
			}
		}
	}
	items, err := change.Items(p)
	if err != nil {
		t.Fatal(err)
	}
	wp, err := writejob.NewPlan(store.WriteJob{Kind: change.KindName, Profile: "walk", BaseURL: w.e.URL, Plan: "offboarding"}, items)
	if err != nil {
		t.Fatal(err)
	}
	return change.Kind{API: w.e.Client}, wp
}

func differ(got, want map[string]map[string]string) []string {
	var out []string
	for id, m := range want {
		for k, l := range m {
			if got[id][k] != l {
				out = append(out, fmt.Sprintf("%s on %s is %q, want %q", k, id, got[id][k], l))
			}
		}
		for k, l := range got[id] {
			if _, ok := m[k]; !ok {
				out = append(out, fmt.Sprintf("%s on %s is %q, want no direct share", k, id, l))
			}
		}
	}
	sort.Strings(out)
	return out
}

func (w *world) Applied() []string  { return differ(directNow(w.t, w.e.Client), w.want) }
func (w *world) Reverted() []string { return differ(directNow(w.t, w.e.Client), w.start) }
func (w *world) Undoable() bool     { return true }

// TestFaultWalkOfAnAccessApply walks every write point of the leaver's
// offboarding job and of its undo with every fault (writejobtest.Walk),
// without and with a lost answer, against the simulator: after a resume
// the service is exactly the plan, after the undo exactly as it was.
func TestFaultWalkOfAnAccessApply(t *testing.T) {
	n := writejobtest.Walk(t, &world{}, writejobtest.Config{Schedules: os.Getenv("VAULTDECK_FAULT_SCHEDULES"), Only: os.Getenv("VAULTDECK_FAULT_ONLY")})
	t.Logf("%d schedules walked", n)
}

// TestUndoLeavesAColleaguesChangeAlone: a share a colleague changed
// between the apply and the undo is refused by name; the rest goes back.
func TestUndoLeavesAColleaguesChangeAlone(t *testing.T) {
	w := &world{}
	k, wp := w.Fresh(t)
	st, err := store.Open(t.TempDir() + "/" + store.FileName)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := writejob.Deps{Store: st}
	id, err := writejob.Start(d, wp)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if rep := writejob.Run(ctx, d, k, id); rep.Err != nil || !rep.Settled() || rep.Count(writejob.Done) != len(wp.Items) {
		t.Fatalf("run: %v settled %v, %d done of %d", rep.Err, rep.Settled(), rep.Count(writejob.Done), len(wp.Items))
	}
	if bad := w.Applied(); len(bad) > 0 {
		t.Fatalf("applied: %v", bad)
	}
	// a colleague gives the leaver READ again on the directly managed project
	var pid string
	for _, p := range w.e.Sim.Projects() {
		if p.Name == sim.LeaverDirectManage {
			pid = p.ID
		}
	}
	if err := w.e.Sim.Share(pid, w.who, "READ"); err != nil {
		t.Fatal(err)
	}
	_, up, err := writejob.PlanUndo(ctx, st, k, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(up.Refused) != 1 || !strings.Contains(up.Refused[0].Label, sim.LeaverDirectManage) || !strings.Contains(up.Refused[0].Why, "READ") {
		t.Fatalf("refused %+v, want the colleague's change named", up.Refused)
	}
	un, err := writejob.NewPlan(store.WriteJob{Kind: change.KindName, Profile: "walk", BaseURL: w.e.URL, Plan: up.Text, UndoOf: id}, up.Items)
	if err != nil {
		t.Fatal(err)
	}
	uid, err := writejob.Start(d, un)
	if err != nil {
		t.Fatal(err)
	}
	if rep := writejob.Run(ctx, d, k, uid); rep.Err != nil || !rep.Settled() {
		t.Fatalf("undo: %v", rep.Err)
	}
	bad := w.Reverted()
	if len(bad) != 1 || !strings.Contains(bad[0], pid) || !strings.Contains(bad[0], `"READ", want "MANAGE"`) {
		t.Fatalf("after the undo: %v, want only the colleague's READ where the leaver had MANAGE", bad)
	}
	_ = api.AccessRead
}
