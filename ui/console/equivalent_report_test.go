package console_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/activityview"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/personview"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// exported is what e on p writes, as records (the header first).
func exported(t *testing.T, p page.Page) [][]string {
	t.Helper()
	ex, ok := p.(interface {
		ExportTable() widgets.TableExport
		Exports() bool
	})
	if !ok || !ex.Exports() {
		t.Fatalf("%s: e has nothing to write", p.Title())
	}
	var b bytes.Buffer
	if err := ex.ExportTable().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(b.String(), "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func column(recs [][]string, name string) []string {
	i := slices.Index(recs[0], name)
	var out []string
	for _, r := range recs[1:] {
		out = append(out, r[i])
	}
	return slices.Sorted(slices.Values(out))
}

// TestEquivalentPersonAndActivity (issue 42): :person and :activity have C
// (vaultdeck person EMAIL, audit stats), V (their queries reopen them) and
// e, and the command lists what the view shows: the person's deletions in
// the bin (the planted burst's 15 among them: it said "Deleted 0"), the
// activity's buckets.
func TestEquivalentPersonAndActivity(t *testing.T) {
	h := newEquivSim(t, sim.Options{AuditBurst: sim.AuditBurst{Count: 15}})
	st := h.localDB()
	h.env.Journal = st
	h.cli("audit", "sync")
	who := h.headless(page.Query{Command: []string{"audit"}, Flags: []page.Flag{{Name: "type", Value: sim.AuditAPIDeleteProject}, {Name: "limit", Value: "1"}}}, "user")[0]

	deps := personview.Deps{Store: st, Profile: equivProfile}
	p := loaded(t, personview.New(h.env, deps, who))
	p = loaded(t, keys(p, "r")) // the parts nothing local covers, asked of the service
	p = keys(p, "tab", "tab")   // the deleted part
	q := says(t, p, "vaultdeck person "+who+" --csv --section deleted")
	shown := column(exported(t, p), "ENTRY ID")
	recs, err := csv.NewReader(strings.NewReader(h.cli(append(q.Args(), q.Format...)...))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if listed := column(recs, "ENTRY ID"); len(shown) < 15 || !slices.Equal(shown, listed) {
		t.Errorf("%s lists %d deletions %v; the view shows %d %v", q.Line(), len(listed), listed, len(shown), shown)
	}
	again, err := personview.FromQuery(deps)(h.env, q)
	if err != nil || again.(page.Querier).Query().Args()[1] != who {
		t.Errorf("reopened: %v", err)
	}

	a := loaded(t, activityview.New(h.env, "2d "+sim.AuditAPIDeleteProject))
	q = says(t, a, "vaultdeck audit stats --since 2d --by hour --type "+sim.AuditAPIDeleteProject)
	var stats struct {
		Buckets []struct{ Count int } `json:"buckets"`
	}
	if err := json.Unmarshal([]byte(h.cli(append(q.Args(), "--json")...)), &stats); err != nil {
		t.Fatal(err)
	}
	var listed, total []string
	for _, b := range stats.Buckets {
		listed = append(listed, strconv.Itoa(b.Count))
	}
	for _, r := range exported(t, a)[1:] {
		total = append(total, r[2])
	}
	if !slices.Equal(listed, total) || !slices.Contains(total, "15") {
		t.Errorf("%s counts %v; the view's buckets %v", q.Line(), listed, total)
	}
	h.reopened(a, activityview.FromQuery, func(p page.Page) []string { return exported(t, p)[0] })
}
