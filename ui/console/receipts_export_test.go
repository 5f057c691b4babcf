package console_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/receiptsview"
)

// TestReceiptsExportIsItsCommandsCSV: `:receipts` lists what `vaultdeck
// access receipts` lists, so C says that command, and e writes the file
// its --csv prints, byte for byte (one export per view, issue 42: times in
// RFC 3339 UTC, the who as recorded), as listed and sorted; a receipt open
// says `access receipts N`. Before, C said "this view lists nothing that a
// headless command lists" and e wrote the table's short times.
func TestReceiptsExportIsItsCommandsCSV(t *testing.T) {
	h := newEquiv(t)
	st := h.localDB()
	h.env.Journal = st
	var first int64
	for i, who := range []string{"m.castellano@harrowgate-law.com", "=HYPERLINK(\"x\")@evil.example", "a.nakamura@harrowgate-law.com"} {
		j := store.WriteJob{Kind: change.KindName, Profile: equivProfile, BaseURL: h.sim.URL, ActorEmail: who, Plan: "plan"}
		if i == 2 {
			j.UndoOf = first
		}
		items := []store.WriteJobItem{{Seq: 1, Send: 1, Target: "p|x@y", Action: change.Remove}, {Seq: 2, Send: 1, Target: "p|z@y", Action: change.Remove}}
		id, err := st.StartWriteJob(j, items)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = id
		}
		if i != 1 {
			if err := st.FinishWriteJob(id, store.JobComplete, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	open := func() page.Page { return loaded(t, receiptsview.Route(receiptsview.Deps{Store: st})(h.env, "")) }
	says(t, open(), "vaultdeck access receipts")
	h.sameFile(open())
	sorted := keys(open(), "o")
	if q := sorted.(page.Querier).Query(); q.Order != nil {
		t.Errorf("o: no --sort said (C says %s; %q)", q.Line(), q.Order)
	}
	h.sameFile(sorted)
	filtered := slash(open(), "nakamura") // the who: in no job's number or status
	if _, ok := filtered.(page.Querier).Query().Value("filter"); !ok {
		t.Errorf("/nakamura: no --filter said (C says %s; %q)", filtered.(page.Querier).Query().Line(), filtered.(page.Querier).Query().Unsaid)
	}
	h.sameFile(filtered)
	// a receipt open: its changes, as `access receipts N --csv` writes
	// them (e wrote the list's rows under the receipt on screen)
	one := keys(open(), "enter")
	says(t, one, "vaultdeck access receipts "+strconv.FormatInt(first+2, 10))
	h.sameFile(one)
	// each saved (V) reopens (:NAME) saying the same command, on the same rows
	from := receiptsview.FromQuery(receiptsview.Deps{Store: st})
	for _, p := range []page.Page{open(), sorted, filtered, one} {
		h.reopened(p, from, func(p page.Page) []string { return strings.Split(exportOf(t, p), "\n") })
	}
}
