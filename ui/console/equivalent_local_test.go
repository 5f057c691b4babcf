package console_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/accessview"
	"github.com/vaultdeck/vaultdeck/ui/mattersview"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// The equivalent command of the views that read the local database (the
// access review's snapshots, the matter receipts): the command reads the
// same database, as `vaultdeck access ...` and `vaultdeck matters ...` do.

const equivProfile = "default"

// localDB opens the database the views and their commands share.
func (h *equiv) localDB() *store.Store {
	h.t.Helper()
	h.db = filepath.Join(h.t.TempDir(), store.FileName)
	st, err := store.Open(h.db)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { st.Close() })
	return st
}

// says is p's command line; it fails as C fails on a view with no query.
func says(t *testing.T, p page.Page, want string) page.Query {
	t.Helper()
	qr, ok := p.(page.Querier)
	if !ok {
		t.Fatalf("C on %s says: this view lists nothing that a headless command lists (want %s)", p.Title(), want)
	}
	q := qr.Query()
	if got := q.Line(q.Format...); got != want {
		t.Fatalf("C on %s says %s, want %s", p.Title(), got, want)
	}
	return q
}

// sameSet checks the rows shown are the rows the command lists, where the
// view has no filter to narrow them with.
func (h *equiv) sameSet(q page.Query, shown, listed []string) {
	h.t.Helper()
	if len(q.Unsaid) > 0 {
		h.t.Fatalf("%s: the command leaves out %q", q.Line(), q.Unsaid)
	}
	a, b := slices.Sorted(slices.Values(shown)), slices.Sorted(slices.Values(listed))
	if len(a) == 0 || !slices.Equal(a, b) {
		h.t.Errorf("%s\n lists %d rows %v\n the view shows %d %v", q.Line(), len(b), b, len(a), a)
	}
}

func lower(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

func TestEquivalentAccess(t *testing.T) {
	h := newEquiv(t)
	st := h.localDB()
	crawl := func() store.AccessSnapshot {
		sn, err := (&access.Crawler{API: h.sim.Client, Store: st, Profile: equivProfile}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return sn
	}
	first := crawl()
	// one change between the crawls: someone given MANAGE on a project they were not in
	grants, _ := st.AccessGrants(first.ID, store.AccessGrantFilter{})
	pid := grants[0].ProjectID
	for _, g := range grants {
		if !slices.ContainsFunc(grants, func(o store.AccessGrant) bool { return o.ProjectID == pid && strings.EqualFold(o.Email, g.Email) }) {
			if err := h.sim.Sim.Share(pid, g.Email, "MANAGE"); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	crawl()
	deps := accessview.Deps{Store: st, Profile: equivProfile}
	rows := func(p page.Page) []string { return p.(*accessview.Model).Table.VisibleIDs() }

	p := loaded(t, accessview.New(h.env, deps))
	q := says(t, p, "vaultdeck access people")
	h.sameSet(q, rows(p), lower(h.listed(q, "email")))
	h.reopened(p, accessview.FromQuery(deps), rows)

	email := rows(p)[0] // the first person, selected
	p = keys(p, "enter")
	q = says(t, p, "vaultdeck access user "+email)
	if shown := rows(p); len(shown) == 0 || len(shown) >= len(grants) {
		t.Fatalf("%s: %d of %d grants", q.Line(), len(shown), len(grants))
	}
	h.sameSet(q, rows(p), h.listed(q, "project_id"))
	h.reopened(p, accessview.FromQuery(deps), rows)

	p = keys(p, "esc", "tab")
	q = says(t, p, "vaultdeck access diff")
	h.sameSet(q, rows(p), h.listed(q, "project_id"))
	h.reopened(p, accessview.FromQuery(deps), rows)
}

func TestEquivalentMatters(t *testing.T) {
	h := newEquiv(t)
	st := h.localDB()
	twoMatterReceipts(t, st)
	deps := mattersview.Deps{Store: st, Profile: "work"}
	h.env = pagetest.WithJobs(h.env, page.Jobs{Matters: h.sim.Client}) // the matters view is for a session with the matter job
	rows := func(p page.Page) []string { return p.(*mattersview.Model).Table().VisibleIDs() }

	p := loaded(t, mattersview.New(h.env, deps, ""))
	q := says(t, p, "vaultdeck matters receipts")
	h.sameSet(q, rows(p), h.listed(q, "id"))
	h.reopened(p, mattersview.FromQuery(deps), rows)

	// the newest receipt, its error codes cycled to invalid_client_id
	p = keys(p, "enter", "t", "t")
	id := p.(*mattersview.Model).ReceiptID()
	q = says(t, p, "vaultdeck matters receipt "+strconv.FormatInt(id, 10)+" --code invalid_client_id")
	var out struct {
		Items []struct{ Line int } `json:"items"`
	}
	if err := json.Unmarshal([]byte(h.cli(append(q.Args(), "--json")...)), &out); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, it := range out.Items {
		listed = append(listed, strconv.Itoa(it.Line))
	}
	if shown := rows(p); len(shown) != 2 {
		t.Fatalf("the code filter shows %v", shown)
	}
	h.sameSet(q, rows(p), listed)
	h.reopened(p, mattersview.FromQuery(deps), rows)

	// and its outcomes cycled (f) to the errors: both filters are said
	p = keys(p, "f", "f", "f")
	q = says(t, p, "vaultdeck matters receipt "+strconv.FormatInt(id, 10)+" --result error --code invalid_client_id")
	if err := json.Unmarshal([]byte(h.cli(append(q.Args(), "--json")...)), &out); err != nil {
		t.Fatal(err)
	}
	listed = listed[:0]
	for _, it := range out.Items {
		listed = append(listed, strconv.Itoa(it.Line))
	}
	h.sameSet(q, rows(p), listed)
	h.reopened(p, mattersview.FromQuery(deps), rows)

	// a file being previewed is no listing: C says so
	p = keys(p, "esc", "n")
	if q := p.(page.Querier).Query(); len(q.Command) != 0 {
		t.Errorf("typing a path, C says %s", q.Line())
	}
}

// listed runs q's command with --json (the snapshot and receipt listings
// print a table on --jsonl: see the report of issue 31) and returns the
// items' field.
func (h *equiv) listed(q page.Query, field string) []string {
	h.t.Helper()
	var items []map[string]any
	if err := json.Unmarshal([]byte(h.cli(append(q.Args(), "--json")...)), &items); err != nil {
		h.t.Fatalf("%s --json: %v", q.Line(), err)
	}
	out := make([]string, len(items))
	for i, it := range items {
		switch v := it[field].(type) {
		case string:
			out[i] = v
		case float64:
			out[i] = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return out
}

// twoMatterReceipts records two finished matter deletion receipts of
// profile "work": 2 pairs deleted, then 6 whose last four have error
// codes and an already_absent to filter by.
func twoMatterReceipts(t *testing.T, st *store.Store) {
	t.Helper()
	for _, n := range []int{2, 6} {
		id, err := st.StartReceipt(store.Receipt{Action: "delete", Profile: "work", Endpoint: "e", FileName: "m.csv", Pairs: n})
		if err != nil {
			t.Fatal(err)
		}
		items := []store.ReceiptItem{{Line: 2, ClientID: "C", MatterID: "M2", Result: "deleted", Request: 1}, {Line: 3, ClientID: "C", MatterID: "M3", Result: "deleted", Request: 1}}
		if n == 6 {
			items = append(items, store.ReceiptItem{Line: 4, ClientID: "X", MatterID: "M4", Result: "error", Code: "invalid_client_id", Request: 2},
				store.ReceiptItem{Line: 5, ClientID: "Y", MatterID: "M5", Result: "error", Code: "invalid_client_id", Request: 2},
				store.ReceiptItem{Line: 6, ClientID: "C", MatterID: "M6", Result: "error", Code: "blocked_by_ethical_wall", Request: 2},
				store.ReceiptItem{Line: 7, ClientID: "C", MatterID: "M7", Result: "already_absent", Request: 2})
		}
		if err := st.AddReceiptItems(id, items); err != nil {
			t.Fatal(err)
		}
		if err := st.FinishReceipt(id, store.ReceiptComplete, "", nil); err != nil {
			t.Fatal(err)
		}
	}
}
