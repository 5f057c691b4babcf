package console_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/auditview"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

// TestEquivalentAuditAtTheNewest (issue 42): the audit view at the log's
// newest entry says no end of time, so its C lists its rows, the newest
// included, from the mirror as from the service, and a saved view of it
// shows the deletion made after it was saved. Before, C said --until
// NEWEST+1ns, which the mirror read as NEWEST (14 rows of 15), and V froze
// those times.
func TestEquivalentAuditAtTheNewest(t *testing.T) {
	h := newEquivSim(t, sim.Options{AuditBurst: sim.AuditBurst{Count: 15}})
	h.localDB()
	all := len(h.headless(page.Query{Command: []string{"audit"}, Flags: []page.Flag{{Name: "limit", Value: "0"}}}, "id"))
	h.cli("audit", "sync") // the command reads the mirror, as after a sync
	rows := func(p page.Page) []string { return p.(*auditview.Model).Table.VisibleIDs() }
	p := loaded(t, auditview.New(h.env, sim.AuditAPIDeleteProject))
	q := p.(page.Querier).Query()
	for _, f := range []string{"since", "until"} {
		if v, ok := q.Value(f); ok {
			t.Errorf("at the newest entry, C fixes --%s %s: %s", f, v, q.Line())
		}
	}
	if n := len(rows(p)); n != 15 {
		t.Fatalf("the view shows %d deletions, want the 15 planted", n)
	}
	h.same(p, rows(p), "id", all)

	// a project deleted after the view was saved: the saved view lists it
	var victim string
	for _, pr := range h.sim.Sim.Projects() {
		if !pr.Example && !pr.Deleted && pr.Name != sim.ConflictsProjectName {
			victim = pr.ID
			break
		}
	}
	if _, err := h.sim.Client.DeleteProject(context.Background(), victim); err != nil {
		t.Fatal(err)
	}
	h.cli("audit", "sync")
	listed := h.headless(q, "id")
	if len(listed) != 16 || !slices.Contains(listed, listed[0]) {
		t.Errorf("the saved view lists %d deletions after one more, want 16: %s", len(listed), q.Line())
	}
	again, err := auditview.FromQuery(h.env, q)
	if err != nil {
		t.Fatal(err)
	}
	again = loaded(t, again)
	if got := rows(again); len(got) != 16 || !slices.Equal(got, listed) {
		t.Errorf("the saved view reopened shows %d rows %v, the command %v", len(got), got, listed)
	}
}

// typed presses each character of s, as a person types a filter.
func typed(p page.Page, s string) page.Page {
	for _, r := range s {
		p = keys(p, string(r))
	}
	return p
}

// TestEquivalentBinNameFilter (issue 42): a / filter in the bin that
// matches project names alone is the command's --name, and a saved view of
// it reopens with it; one that matches another column (every deleter's
// address, a.osei) is --filter, as exact, and reopens with
// it; one that matches a cell as the screen draws it but not as the
// record writes it (a date shortened to "11-28 09:09") is said as no
// flag's, and not saved.
func TestEquivalentBinNameFilter(t *testing.T) {
	h := newEquiv(t)
	rows := func(p page.Page) []string { return p.(*recyclebinview.Model).Table.VisibleIDs() }
	p := loaded(t, recyclebinview.New(h.env, ""))
	all := p.(*recyclebinview.Model).Table.Total()
	p = keys(typed(keys(p, "/"), "larkspur"), "enter")
	q := p.(page.Querier).Query()
	if v, _ := q.Value("name"); v != "larkspur" {
		t.Fatalf("a / filter on names: C says %s (not in it: %q)", q.Line(), q.Unsaid)
	}
	h.same(p, rows(p), "id", all)
	h.reopened(p, recyclebinview.FromQuery, rows)
	// reopened, the header says the name asked of the service, and esc drops it
	again, _ := recyclebinview.FromQuery(h.env, q)
	again = loaded(t, again)
	if v := again.View(); !strings.Contains(v, `name holds "larkspur"`) {
		t.Errorf("a saved view's --name is not on screen:\n%s", v)
	}
	again, _ = pagetest.Press(again, "esc") // Press drives the reload it starts
	if n := len(rows(again)); n != all || strings.Contains(again.(page.Querier).Query().Line(), "--name") {
		t.Errorf("esc on a saved --name: %d rows of %d, C says %s", n, all, again.(page.Querier).Query().Line())
	}

	p = keys(typed(keys(p, "esc", "/"), "osei"), "enter") // deleters a.osei and g.osei
	q = p.(page.Querier).Query()
	if v, _ := q.Value("filter"); v != "osei" || len(q.Unsaid) != 0 {
		t.Fatalf("a / filter on the deleters' addresses: C says %s, not in it %q", q.Line(), q.Unsaid)
	}
	h.same(p, rows(p), "id", all)
	h.reopened(p, recyclebinview.FromQuery, rows)

	row, _ := p.(*recyclebinview.Model).Table.Selected()
	shortened := row.Cells[2] // "11-28 09:09": the record writes 2026-11-28T09:09:…Z
	p = keys(typed(keys(p, "esc", "esc", "/"), shortened), "enter")
	q = p.(page.Querier).Query()
	if _, ok := q.Value("filter"); ok || len(q.Unsaid) != 1 || len(rows(p)) == 0 {
		t.Errorf("a / filter on a date as drawn (%q, %d rows): C says %s, not in it %q", shortened, len(rows(p)), q.Line(), q.Unsaid)
	}
}
