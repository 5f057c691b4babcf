package console_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/auditview"
	"github.com/vaultdeck/vaultdeck/ui/cli"
	"github.com/vaultdeck/vaultdeck/ui/filestatusview"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

// The equivalent command of each view (issue 31): the command a view's C
// shows, run headless against the same simulator, lists the rows the view
// shows. One harness; a test per view.

type equiv struct {
	t   *testing.T
	sim *simtest.Env
	env page.Env
	// db is the local database the command reads (access snapshots,
	// receipts), as the view does; "" for the service's listings.
	db string
}

func newEquiv(t *testing.T) *equiv {
	t.Helper()
	return newEquivSim(t, sim.Options{})
}

// newEquivSim is the harness over a simulator seeded with o (seed 1, the
// pinned clock, no limits).
func newEquivSim(t *testing.T, o sim.Options) *equiv {
	t.Helper()
	o.Seed, o.Control, o.NoRateLimit, o.Now = 1, true, true, func() time.Time { return pagetest.Now }
	e := simtest.Start(t, simtest.Options{Sim: o})
	return &equiv{t: t, sim: e, env: pagetest.Env(t, e.Client, false)}
}

// headless runs q's command with --json against the simulator (the same
// clock as the view's), and returns the items' field (dot path) in order.
func (h *equiv) headless(q page.Query, field string) []string {
	h.t.Helper()
	args := append(q.Args(), "--jsonl")
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(h.cli(args...)), "\n") {
		if line == "" {
			continue
		}
		var item map[string]any
		if err := json.Unmarshal([]byte(line), &item); err != nil {
			h.t.Fatalf("vaultdeck %s: %v in %q", strings.Join(args, " "), err, line)
		}
		var v any = item
		for _, k := range strings.Split(field, ".") {
			v = v.(map[string]any)[k]
		}
		s, _ := v.(string)
		if n, ok := v.(float64); ok { // receipt IDs and lines are numbers
			s = strconv.FormatFloat(n, 'f', -1, 64)
		}
		ids = append(ids, s)
	}
	return ids
}

// cli runs vaultdeck args in-process against the simulator and the local
// database, and returns its output.
func (h *equiv) cli(args ...string) string {
	h.t.Helper()
	var out, errb bytes.Buffer
	vars := map[string]string{"VAULTDECK_TOKEN": h.sim.Token("admin"), "VAULTDECK_BASE_URL": h.sim.URL}
	env := cli.Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
		Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}, Clock: &simtest.Clock{Sim: h.sim.Sim}}
	if h.db != "" {
		env.Journal = func(string) (*store.Store, string, error) { st, err := store.Open(h.db); return st, equivProfile, err }
		env.OpenStore = func() (*store.Store, error) { return store.Open(h.db) }
	}
	// `status` exits 3 when a file it lists needs action (help
	// exit-codes): its output is whole
	if code := cli.Main(context.Background(), args, env); code != 0 && (code != 3 || args[0] != "status") {
		h.t.Fatalf("vaultdeck %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// same checks the view's rows against its command's, and that the view
// narrowed something (a test that lists everything proves little).
func (h *equiv) same(p page.Page, shown []string, field string, all int) {
	h.t.Helper()
	q := p.(page.Querier).Query()
	if len(q.Unsaid) > 0 {
		h.t.Fatalf("%s: the command leaves out %q", q.Line(), q.Unsaid)
	}
	got := h.headless(q, field)
	if len(shown) == 0 || len(shown) >= all {
		h.t.Fatalf("%s: the view shows %d of %d rows: narrow it so that the test means something", q.Line(), len(shown), all)
	}
	// --csv and --json stream in the service's order (memory stays flat
	// however large the listing); the rows are the same, the order is the
	// table output's job.
	got, shown = slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(shown))
	if !slices.Equal(got, shown) {
		h.t.Errorf("%s\n lists %d rows %v\n the view shows %d %v", q.Line(), len(got), got, len(shown), shown)
	}
}

func keys(p page.Page, ks ...string) page.Page {
	for _, k := range ks {
		p, _ = pagetest.Press(p, k)
	}
	return p
}

func loaded(t *testing.T, p page.Page) page.Page {
	t.Helper()
	p.SetSize(120, 30)
	p, _ = pagetest.Drive(p, p.Init())
	return p
}

func TestEquivalentRecycleBin(t *testing.T) {
	h := newEquiv(t)
	p := loaded(t, recyclebinview.New(h.env, ""))
	all := p.(*recyclebinview.Model).Table.Total()
	p = keys(p, "p") // purging within 7 days
	h.same(p, p.(*recyclebinview.Model).Table.VisibleIDs(), "id", all)
	// the deleter of the first entry shown, through the by-deleter table
	p = keys(p, "b", "enter")
	if q := p.(page.Querier).Query(); !slices.ContainsFunc(q.Flags, func(f page.Flag) bool { return f.Name == "deleted-by" }) {
		t.Fatalf("no deleter in %s", q.Line())
	}
	h.same(p, p.(*recyclebinview.Model).Table.VisibleIDs(), "id", all)
	// a saved view of it (:NAME) shows the same rows again
	h.reopened(p, recyclebinview.FromQuery, func(p page.Page) []string { return p.(*recyclebinview.Model).Table.VisibleIDs() })
}

// reopened builds the page again from p's query, as :NAME does with a
// saved view, and checks it shows the same rows and says the same query.
func (h *equiv) reopened(p page.Page, from func(page.Env, page.Query) (page.Page, error), rows func(page.Page) []string) {
	h.t.Helper()
	q := p.(page.Querier).Query()
	again, err := from(h.env, q)
	if err != nil {
		h.t.Fatalf("%s: %v", q.Line(), err)
	}
	again = loaded(h.t, again)
	if got := again.(page.Querier).Query().Line(); got != q.Line() {
		h.t.Errorf("reopened from %s, it says %s", q.Line(), got)
	}
	if a, b := rows(again), rows(p); !slices.Equal(a, b) {
		h.t.Errorf("reopened from %s, it shows %v, not %v", q.Line(), a, b)
	}
}

func TestEquivalentProjects(t *testing.T) {
	h := newEquiv(t)
	all := len(h.headless(page.Query{Command: []string{"projects"}}, "id"))
	// the server-side name filter, as / sends it (and as :NAME opens it)
	p, err := projectsview.FromQuery(h.env, page.Query{Command: []string{"projects"}, Flags: []page.Flag{{Name: "name", Value: "an"}}})
	if err != nil {
		t.Fatal(err)
	}
	p = loaded(t, p)
	h.same(p, p.(*projectsview.Model).Table.VisibleIDs(), "id", all)
}

func TestEquivalentProjectUsersAndFiles(t *testing.T) {
	h := newEquiv(t)
	pid := h.headless(page.Query{Command: []string{"projects"}}, "id")[0]
	p := loaded(t, projectview.New(h.env, pid))
	users := p.(*projectview.Model).Table.VisibleIDs()
	if q := p.(page.Querier).Query().Line(); q != "vaultdeck users "+pid {
		t.Fatalf("users tab: %s", q)
	}
	if got := h.headless(p.(page.Querier).Query(), "user_id"); !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(users))) || len(users) == 0 {
		t.Errorf("users: %v, the view %v", got, users)
	}
	p = keys(p, "tab")
	all := p.(*projectview.Model).Table.Total()
	for range 3 { // f cycles the status filter to one that some files have
		if p = keys(p, "f"); p.(*projectview.Model).Table.Len() > 0 {
			break
		}
	}
	h.same(p, p.(*projectview.Model).Table.VisibleIDs(), "id", all)
	h.reopened(p, projectview.FromQuery, func(p page.Page) []string { return p.(*projectview.Model).Table.VisibleIDs() })
}

func TestEquivalentAudit(t *testing.T) {
	h := newEquiv(t)
	all := len(h.headless(page.Query{Command: []string{"audit"}, Flags: []page.Flag{{Name: "limit", Value: "0"}}}, "id"))
	p := loaded(t, auditview.New(h.env, "auth:login"))
	m := p.(*auditview.Model)
	h.same(p, m.Table.VisibleIDs(), "id", all)
	h.reopened(p, auditview.FromQuery, func(p page.Page) []string { return p.(*auditview.Model).Table.VisibleIDs() })
	// unfiltered, the view hides the token's own reads of the log: so does its command
	p = loaded(t, auditview.New(h.env, ""))
	h.same(p, p.(*auditview.Model).Table.VisibleIDs(), "id", all)
}

func TestEquivalentFileStatus(t *testing.T) {
	h := newEquiv(t)
	pid := h.headless(page.Query{Command: []string{"projects"}}, "id")[0]
	files := h.headless(page.Query{Command: []string{"files", pid}}, "id")
	if len(files) < 4 {
		t.Fatalf("project %s has %d files", pid, len(files))
	}
	// the first poll at once, and no next one
	armed := 0
	tick := func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		if armed++; armed > 1 {
			return nil
		}
		return func() tea.Msg { return fn(pagetest.Now.Add(d)) }
	}
	p := loaded(t, filestatusview.New(h.env, strings.Join(files[:3], ","), filestatusview.Options{Tick: tick}))
	h.same(p, p.(*filestatusview.Model).Table.VisibleIDs(), "file_id", len(files))
	again, err := filestatusview.FromQuery(h.env, p.(page.Querier).Query(), filestatusview.Options{})
	if err != nil || again.(page.Querier).Query().Line() != p.(page.Querier).Query().Line() {
		t.Errorf("reopened: %v %v", err, again)
	}
}

// TestEquivalentAuditRelative: a view opened on an age ("the last day",
// a saved --since 1d) says its age, not the times it loaded, so a saved
// "last day" stays the last day; its rows are the command's.
func TestEquivalentAuditRelative(t *testing.T) {
	h := newEquiv(t)
	all := len(h.headless(page.Query{Command: []string{"audit"}, Flags: []page.Flag{{Name: "limit", Value: "0"}}}, "id"))
	for _, c := range []struct{ flags []page.Flag }{
		// the test's own reads of the log are logged at the pinned now: hidden, as the console hides them
		{[]page.Flag{{Name: "since", Value: "1d"}, {Name: "hide-own-reads", Switch: true}}},
		{[]page.Flag{{Name: "type", Value: "auth:login"}, {Name: "since", Value: "2d"}, {Name: "until", Value: "12h"}}},
	} {
		p, err := auditview.FromQuery(h.env, page.Query{Command: []string{"audit"}, Flags: c.flags})
		if err != nil {
			t.Fatal(err)
		}
		p = loaded(t, p)
		line := p.(page.Querier).Query().Line()
		want := page.Query{Command: []string{"audit"}, Flags: c.flags}
		for _, f := range []string{"since", "until"} {
			if v, ok := want.Value(f); ok && !strings.Contains(line, "--"+f+" "+v) {
				t.Errorf("opened with %s, C says %s", want.Line(), line)
			}
		}
		h.same(p, p.(*auditview.Model).Table.VisibleIDs(), "id", all)
		h.reopened(p, auditview.FromQuery, func(p page.Page) []string { return p.(*auditview.Model).Table.VisibleIDs() })
	}
}
