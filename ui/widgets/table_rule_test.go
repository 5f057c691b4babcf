package widgets

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TestSayExactSaysOnlyWhatTheFlagsReproduce: a / filter and a sort are
// said as --filter and --sort when the flags' rule over the export's
// records gives the rows shown in the order shown; a cell the screen draws
// otherwise than the record ("3 days ago" for a time) keeps the refusal,
// naming it: Unsaid for the filter, Order for the sort.
func TestSayExactSaysOnlyWhatTheFlagsReproduce(t *testing.T) {
	cols := []Column{{Title: "name"}, {Title: "age"}, {Title: "files", Numeric: true}}
	rows := []Row{
		{ID: "a", Cells: []string{"Alpha", "3 days ago", "9"}, Nums: []float64{0, 0, 9}},
		{ID: "b", Cells: []string{"Bravo", "10 days ago", "100"}, Nums: []float64{0, 0, 100}},
		{ID: "c", Cells: []string{"Charlie", "1 day ago", "20"}, Nums: []float64{0, 0, 20}},
	}
	records := map[string][]string{ // the record holds the time itself
		"a": {"Alpha", "2026-11-29T10:00:00Z", "9"},
		"b": {"Bravo", "2026-11-22T10:00:00Z", "100"},
		"c": {"Charlie", "2026-12-01T10:00:00Z", "20"},
	}
	header := []string{"name", "age (UTC)", "files"}
	say := func(tb *Table) page.Query {
		ex := tb.Export()
		ex = ex.Records(header, func(i int) []string { return records[ex.IDOf(i)] })
		var q page.Query
		tb.SayExact(&q, -1, false, ex)
		return q
	}
	table := func(filter string, sortCol int, desc bool) *Table {
		tb := NewTable(testTheme(t), keysForTest(), 1, cols)
		tb.SetRows(rows)
		if filter != "" {
			tb.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")})
			for _, r := range filter {
				tb.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
			tb.Update(tea.KeyMsg{Type: tea.KeyEnter})
		}
		if sortCol >= 0 {
			tb.SetSort(sortCol, desc)
		}
		return tb
	}
	flag := func(q page.Query, name string) string { v, _ := q.Value(name); return v }
	for _, c := range []struct {
		name          string
		filter        string
		col           int
		desc          bool
		filterFlag    string
		sortFlag      string
		unsaid, order bool
	}{
		{"a filter the records hold", "ar", -1, false, "ar", "", false, false},
		{"a filter on a cell as drawn", "days ago", -1, false, "", "", true, false},
		{"a numeric sort, largest first", "", 2, true, "", "files,desc", false, false},
		{"a sort by names", "", 0, false, "", "name", false, false},
		{"a sort by a cell as drawn", "", 1, false, "", "", false, true},
		{"both, exact", "a", 2, false, "a", "files", false, false},
	} {
		tb := table(c.filter, c.col, c.desc)
		if c.filter != "" && tb.Filter() != c.filter {
			t.Fatalf("%s: the filter typed is %q", c.name, tb.Filter())
		}
		q := say(tb)
		if flag(q, "filter") != c.filterFlag || flag(q, "sort") != c.sortFlag || (len(q.Unsaid) > 0) != c.unsaid || (len(q.Order) > 0) != c.order {
			t.Errorf("%s: --filter %q --sort %q, Unsaid %q, Order %q", c.name, flag(q, "filter"), flag(q, "sort"), q.Unsaid, q.Order)
		}
		if c.unsaid && !strings.Contains(strings.Join(q.Unsaid, ""), c.filter) {
			t.Errorf("%s: the refusal does not name the filter: %q", c.name, q.Unsaid)
		}
		if c.order && !strings.Contains(strings.Join(q.Order, ""), "age") {
			t.Errorf("%s: the refusal does not name the column: %q", c.name, q.Order)
		}
	}
	// a saved view's flags put back on a table show the same rows in the same order
	tb := table("", -1, false)
	if err := tb.ApplyRules("a", "files,desc"); err != nil {
		t.Fatal(err)
	}
	if got, want := tb.VisibleIDs(), table("a", 2, true).VisibleIDs(); !slices.Equal(got, want) {
		t.Errorf("ApplyRules shows %v, want %v", got, want)
	}
	if err := tb.ApplyRules("", "size"); err == nil {
		t.Errorf("a sort by a column the table has not was taken")
	}
}
