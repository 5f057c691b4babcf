package console_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/accessview"
	"github.com/vaultdeck/vaultdeck/ui/activityview"
	"github.com/vaultdeck/vaultdeck/ui/auditview"
	"github.com/vaultdeck/vaultdeck/ui/filestatusview"
	"github.com/vaultdeck/vaultdeck/ui/mattersview"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/personview"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// One export per view, as a class (issue 42): for every view that
// exports, in each state that changes what it shows (as opened, filtered,
// sorted, grouped, another tab or part), e writes the file that the
// view's own C run with --csv prints: the same header, the same records,
// byte for byte. A sort is an order the command does not print in (C says
// so in Order): there e's file holds the command's records, in the order
// on screen. A state no flag says (Unsaid) fails: its file has no command.
func TestEveryViewsExportIsItsCommandsCSV(t *testing.T) {
	h := newEquivSim(t, sim.Options{AuditBurst: sim.AuditBurst{Count: 15}})
	st := h.localDB()
	h.env.Journal = st
	h.cli("audit", "sync")
	pid := h.headless(page.Query{Command: []string{"projects"}}, "id")[0]
	who := h.headless(page.Query{Command: []string{"audit"}, Flags: []page.Flag{{Name: "type", Value: sim.AuditAPIDeleteProject}, {Name: "limit", Value: "1"}}}, "user")[0]
	crawl := func() {
		if _, err := (&access.Crawler{API: h.sim.Client, Store: st, Profile: equivProfile}).Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	crawl()
	// someone given MANAGE on a project they were not in, and a crawl more: the diff has a change
	sn, _ := st.AccessSnapshots(equivProfile)
	grants, _ := st.AccessGrants(sn[0].ID, store.AccessGrantFilter{})
	for _, g := range grants {
		if !slices.ContainsFunc(grants, func(o store.AccessGrant) bool { return o.ProjectID == pid && strings.EqualFold(o.Email, g.Email) }) {
			if err := h.sim.Sim.Share(pid, g.Email, "MANAGE"); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	h.plantHostileProject() // new since the first crawl: its people gained it, under a hostile name
	crawl()
	h.cli("person", who) // keeps the projects listing, which says how each project is reached
	acc := accessview.Deps{Store: st, Profile: equivProfile}

	bin := func() page.Page { return loaded(t, recyclebinview.New(h.env, "")) }
	prj := func() page.Page { return loaded(t, projectview.New(h.env, pid)) }
	aud := func() page.Page { return loaded(t, auditview.New(h.env, "")) }
	hostile := h.plantHostile(pid) // before the listing: the files tab writes it too
	files := h.headless(page.Query{Command: []string{"files", pid}}, "id")
	once := func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil } // the first poll only
	fst := func() page.Page {
		return loaded(t, filestatusview.New(h.env, strings.Join(files[:4], ","), filestatusview.Options{Tick: once}))
	}
	twoMatterReceipts(t, st)
	menv := pagetest.WithJobs(h.env, page.Jobs{Matters: h.sim.Client}) // the matters view is for a session with the matter job
	mat := func() page.Page {
		return loaded(t, mattersview.New(menv, mattersview.Deps{Store: st, Profile: "work"}, ""))
	}
	ppl := func() page.Page { return loaded(t, accessview.New(h.env, acc)) }
	per := func() page.Page {
		return loaded(t, keys(loaded(t, personview.New(h.env, personview.Deps{Store: st, Profile: equivProfile}, who)), "r"))
	}
	cases := []exportCase{
		{"bin", bin},
		{"bin purging soon", func() page.Page { return keys(bin(), "p") }},
		{"bin filtered", func() page.Page { return slash(bin(), "larkspur") }},
		{"bin filtered by a deleter", func() page.Page { return slash(bin(), "osei") }},
		{"bin filtered and sorted", func() page.Page { return keys(slash(bin(), "osei"), "o", "o", "o") }},
		{"bin filtered by name and sorted", func() page.Page { return keys(slash(bin(), "larkspur"), "o") }}, // --name, then --sort
		{"bin sorted by purge in", func() page.Page { return keys(bin(), "o", "o", "o", "o") }},
		{"bin sorted by files", func() page.Page { return keys(bin(), "o", "o", "o", "o", "o") }},
		{"bin purging soon, sorted", func() page.Page { return keys(bin(), "p", "o") }},
		{"bin sorted", func() page.Page { return keys(bin(), "o") }},
		{"bin grouped", func() page.Page { return keys(bin(), "b") }},
		{"bin grouped, purging soon", func() page.Page { return keys(bin(), "p", "b") }},
		{"bin grouped, a deleter chosen", func() page.Page { return keys(bin(), "b", "enter", "b") }},
		{"bin grouped sorted", func() page.Page { return keys(bin(), "b", "o") }},
		{"bin grouped filtered", func() page.Page { return slash(keys(bin(), "b"), "osei") }},
		{"projects", func() page.Page { return loaded(t, projectsview.New(h.env, "")) }},
		{"projects filtered", func() page.Page { return slash(loaded(t, projectsview.New(h.env, "")), "an") }},
		{"projects sorted", func() page.Page { return keys(loaded(t, projectsview.New(h.env, "")), "o") }},
		{"project users", prj},
		{"files tab", func() page.Page { return keys(prj(), "tab") }},
		{"files tab filtered", func() page.Page { return keys(prj(), "tab", "f") }},
		{"files tab sorted", func() page.Page { return keys(prj(), "tab", "o") }},
		{"files tab filtered by /", func() page.Page { return slash(keys(prj(), "tab"), "pdf") }},
		{"project users filtered", func() page.Page { return slash(prj(), "manage") }},
		{"project users sorted", func() page.Page { return keys(prj(), "o") }},
		{"audit", aud},
		{"audit filtered", func() page.Page { return loaded(t, auditview.New(h.env, "auth:login")) }},
		{"audit sorted", func() page.Page { return keys(aud(), "o") }},
		{"audit filtered by /", func() page.Page { return slash(aud(), "login") }},
		{"audit of the last week", func() page.Page { return loaded(t, auditview.New(h.env, "7d..0s")) }},
		{"file status", fst},
		{"file status sorted", func() page.Page { return keys(fst(), "o") }},
		{"file status from the files tab", func() page.Page { return h.fromFilesTab(prj(), once) }},
		{"file status, a hostile name", func() page.Page {
			return loaded(t, filestatusview.New(h.env, hostile+","+files[0], filestatusview.Options{Tick: once}))
		}},
		{"access people", ppl},
		{"access people sorted", func() page.Page { return keys(ppl(), "o") }},
		{"access people filtered", func() page.Page { return slash(ppl(), "harrowgate") }},
		{"access user filtered", func() page.Page { return slash(keys(ppl(), "enter"), "v.") }},
		{"access user", func() page.Page { return keys(ppl(), "enter") }},
		{"access user sorted", func() page.Page { return keys(ppl(), "enter", "o") }},
		{"access diff", func() page.Page { return keys(ppl(), "tab") }},
		{"activity", func() page.Page { return loaded(t, activityview.New(h.env, "2d")) }},
		{"activity filtered", func() page.Page { return loaded(t, activityview.New(h.env, "2d "+sim.AuditAPIDeleteProject)) }},
		{"matters receipts", mat},
		{"matters receipts sorted", func() page.Page { return keys(mat(), "o") }},
		{"matters receipts filtered", func() page.Page { return slash(mat(), "m.csv") }},
		{"matters receipt", func() page.Page { return keys(mat(), "enter") }},
		{"matters receipt filtered", func() page.Page { return keys(mat(), "enter", "t", "t") }},
		{"matters receipt sorted", func() page.Page { return keys(mat(), "enter", "o") }},
		{"matters receipt filtered by /", func() page.Page { return slash(keys(mat(), "enter"), "invalid") }},
		{"person, its first part", per},
		{"person, the next part", func() page.Page { return keys(per(), "tab") }},
		{"person, the third part", func() page.Page { return keys(per(), "tab", "tab") }},
		{"person, the fourth part", func() page.Page { return keys(per(), "tab", "tab", "tab") }},
	}
	journal, jenv := h.journalCases(t, st, pid)
	cases = append(cases, journal...)                   // last: they move the clock on
	cases = append(cases, h.uploadCases(t, st, pid)...) // after the journal's: its files are no part of them
	openedAs := map[string][]page.Flag{}
	// a saved view (:NAME) of each state reopens as it was: the same command, the same file;
	// every view with a FromQuery, keyed by its case names' first word
	reopen := map[string]func(page.Env, page.Query) (page.Page, error){"bin": recyclebinview.FromQuery,
		"projects": projectsview.FromQuery, "project": projectview.FromQuery, "files": projectview.FromQuery,
		"access": accessview.FromQuery(acc), "audit": auditview.FromQuery, "activity": activityview.FromQuery,
		"person,": personview.FromQuery(personview.Deps{Store: st, Profile: equivProfile}),
		"file": func(env page.Env, q page.Query) (page.Page, error) {
			return filestatusview.FromQuery(env, q, filestatusview.Options{Tick: once})
		},
		"matters": func(_ page.Env, q page.Query) (page.Page, error) {
			return mattersview.FromQuery(mattersview.Deps{Store: st, Profile: "work"})(menv, q)
		}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h.t = t
			p := c.p()
			qr, ok := p.(page.Querier)
			if !ok {
				t.Fatalf("%s: C says nothing: the view has no command", c.name)
			}
			q := qr.Query()
			// each state is the state it names, or the case proves nothing
			// and a sort or a / filter is said as --sort or --filter: exact, byte for byte
			_, sortSaid := q.Value("sort")
			_, filterSaid := q.Value("filter")
			switch {
			case strings.Contains(c.name, "sorted") && !sortSaid:
				t.Fatalf("%s: no --sort said (C says %s; %q)", c.name, q.Line(), q.Order)
			case strings.HasSuffix(c.name, " filtered") && len(q.Flags) <= len(openedAs[strings.TrimSuffix(c.name, " filtered")]):
				t.Fatalf("%s: no filter said (C says %s)", c.name, q.Line())
			case (strings.HasSuffix(c.name, "by /") || strings.Contains(c.name, "by a deleter") || strings.Contains(c.name, "people filtered") || strings.Contains(c.name, "user filtered")) && !filterSaid:
				t.Fatalf("%s: no --filter said (C says %s; %q)", c.name, q.Line(), q.Unsaid)
			}
			openedAs[c.name] = q.Flags
			h.sameFile(p)
			if testing.Verbose() {
				t.Logf("%s", firstLines(exportOf(t, p), 3))
			}
			if from, ok := reopen[strings.Fields(c.name)[0]]; ok && len(q.Order) == 0 {
				if strings.HasPrefix(c.name, "file status from the journal") {
					session := h.env
					h.env = jenv // the console of the journal's profile reopens them
					defer func() { h.env = session }()
				}
				rows := func(p page.Page) []string { return strings.Split(exportOf(t, p), "\n") }
				if strings.HasPrefix(c.name, "person") {
					rows = reportOf(t) // the saved view is the report, every part: it reopens at the first
				}
				h.reopened(p, from, rows)
				again, _ := from(h.env, q)
				h.sameFile(loaded(t, again)) // a saved view (:NAME) of it writes the same file
			}
		})
	}
}

// reportOf is what e writes of each part of a person view, the part
// shown last (tab cycles through them back to it).
func reportOf(t *testing.T) func(page.Page) []string {
	return func(p page.Page) []string {
		var out []string
		for range 4 {
			out = append(out, exportOf(t, p))
			p = keys(p, "tab")
		}
		slices.Sort(out)
		return out
	}
}

// sameFile checks e on p against p's command with --csv (see above).
func (h *equiv) sameFile(p page.Page) {
	h.t.Helper()
	ex, ok := p.(interface{ ExportTable() widgets.TableExport })
	if !ok {
		h.t.Fatalf("%s: e has no table to write", p.Title())
	}
	var e bytes.Buffer
	e.WriteString(exportOf(h.t, ex.(page.Page)))
	q := p.(page.Querier).Query()
	if len(q.Unsaid) > 0 {
		h.t.Fatalf("%s: the file e writes has no command: %q", q.Line(), q.Unsaid)
	}
	format := q.Format
	if format == nil {
		format = []string{"--csv"}
	}
	want := h.cli(append(q.Args(), format...)...)
	if strings.Count(e.String(), "\n") < 2 {
		h.t.Fatalf("%s: e wrote %q: too few rows to mean something", q.Line(), e.String())
	}
	if len(q.Order) == 0 {
		if e.String() != want {
			h.t.Errorf("e and `%s` differ: %s", q.Line(format...), firstDiff(e.String(), want))
		}
		return
	}
	got, listed := records(h.t, e.String()), records(h.t, want)
	if !slices.Equal(got[0], listed[0]) {
		h.t.Errorf("%s: e's header %q, the command's %q", q.Line(format...), got[0], listed[0])
	}
	a, b := joined(got[1:]), joined(listed[1:])
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		h.t.Errorf("%s (sorted on screen): e's records and the command's differ: %s", q.Line(format...), firstDiff(strings.Join(a, "\n"), strings.Join(b, "\n")))
	}
}

func records(t *testing.T, s string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(s, "\ufeff"))).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("%v in %q", err, s)
	}
	return recs
}

func joined(recs [][]string) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = strings.Join(r, "\x1f")
	}
	return out
}

// exportOf is the file e writes on p.
func exportOf(t *testing.T, p page.Page) string {
	t.Helper()
	var e bytes.Buffer
	if err := p.(interface{ ExportTable() widgets.TableExport }).ExportTable().WriteCSV(&e); err != nil {
		t.Fatal(err)
	}
	return e.String()
}

func firstLines(s string, n int) string {
	ls := strings.SplitN(s, "\n", n+1)
	return strings.Join(ls[:min(n, len(ls))], "\n")
}

// slash filters p's table with / as a person types it.
func slash(p page.Page, text string) page.Page { return keys(typed(keys(p, "/"), text), "enter") }

// firstDiff is the first line where e's file and the command's output part.
func firstDiff(e, cmd string) string {
	a, b := strings.Split(e, "\n"), strings.Split(cmd, "\n")
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("line %d (of %d and %d):\n e:       %q\n command: %q", i+1, len(a), len(b), x, y)
		}
	}
	return "line ends"
}
