package widgets

import (
	"fmt"
	"strings"
	"testing"
)

// Issue 29.5: "2 marked" stayed after the marked rows were re-uploaded
// and replaced (new IDs). Marks follow the rows they mark, by ID: a reload
// keeps the marks of rows still there and drops the others, and the count
// says what is marked now.
func TestMarksFollowTheirRows(t *testing.T) {
	tb := sampleTable(t, 10)
	run(tb, runes("x")) // id0
	run(tb, runes("x")) // id1
	run(tb, runes("x")) // id2
	rows := make([]Row, 8)
	for i := range rows { // id0 and id1 replaced by new rows; id2.. stay
		id := fmt.Sprint("id", i+2)
		if i >= 8-2 {
			id = fmt.Sprint("new", i)
		}
		rows[i] = Row{ID: id, Cells: []string{id, "1"}, Nums: []float64{0, 1}}
	}
	tb.SetRows(rows)
	if ids := tb.MarkedIDs(); len(ids) != 1 || ids[0] != "id2" {
		t.Errorf("marked after the reload: %v, want [id2]", ids)
	}
	if v := tb.View(); !strings.Contains(v, "1 marked") || strings.Contains(v, "3 marked") {
		t.Errorf("the count does not follow the rows:\n%s", v)
	}
	tb.SetRows(nil)
	if v := tb.View(); strings.Contains(v, "marked") {
		t.Errorf("no rows, yet:\n%s", v)
	}
}

// Issue 29.5: "nothing to show" was drawn under "waiting 35s for the vault
// budget" and read as empty. The empty text follows the view's load state:
// while a load runs the table says it is loading, not that there is
// nothing.
func TestEmptyTextFollowsTheLoad(t *testing.T) {
	tb := sampleTable(t, 0)
	loading := true
	tb.SetLoading(func() bool { return loading })
	if v := tb.View(); strings.Contains(v, "nothing to show") || !strings.Contains(v, "loading") {
		t.Errorf("while loading:\n%s", v)
	}
	loading = false
	if v := tb.View(); !strings.Contains(v, "nothing to show") {
		t.Errorf("loaded and empty:\n%s", v)
	}
}
