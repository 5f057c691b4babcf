package widgets

import (
	"fmt"
	"slices"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// countingSource builds rows on demand and counts the full rows built.
type countingSource struct {
	n     int
	built *int
}

func (s countingSource) Len() int        { return s.n }
func (s countingSource) ID(i int) string { return fmt.Sprint("id", i) }
func (s countingSource) Text(i, c int) string {
	if c == 0 {
		return fmt.Sprintf("Project-%06d", i)
	}
	return fmt.Sprint(i % 97)
}
func (s countingSource) Num(i, c int) float64 {
	if c == 1 {
		return float64(i % 97)
	}
	return 0
}
func (s countingSource) Row(i int) Row {
	*s.built++
	return Row{ID: s.ID(i), Cells: []string{s.Text(i, 0), s.Text(i, 1)}, Nums: []float64{0, s.Num(i, 1)}}
}

func sourceTable(tb testing.TB, n int, built *int) *Table {
	t := NewTable(testTheme(tb), keys.New(false), 7, []Column{
		{Title: "name", Width: 10, Grow: 1}, {Title: "size", Width: 8, Align: AlignRight, Numeric: true},
	})
	t.SetSize(60, 12)
	t.SetPrepared(PrepareSource(countingSource{n: n, built: built}))
	return t
}

// A table over a source builds the rows it draws and no others: loading,
// sorting (numeric and text) and filtering read Num, Text and haystacks,
// and a frame builds the visible window only.
func TestSourceBuildsVisibleRowsOnly(t *testing.T) {
	built := 0
	tb := sourceTable(t, 50_000, &built)
	tb.View()
	if h := tb.bodyHeight(); built > h {
		t.Fatalf("a frame built %d rows, window is %d", built, h)
	}
	built = 0
	tb.SetSort(1, true) // numeric
	tb.SetSort(0, false)
	tb.SetSort(1, false)
	run(tb, runes("/"))
	run(tb, runes("project-0001"))
	run(tb, enter)
	if built != 0 {
		t.Fatalf("sorting and filtering built %d rows", built)
	}
	if tb.Len() != 100 {
		t.Fatalf("filter kept %d rows, want 100", tb.Len())
	}
	// rows 100-199 match; by size (i%97) ascending, 194 (size 0) comes first
	tb.Move(-tb.Len())
	if r, _ := tb.Selected(); r.ID != "id194" {
		t.Errorf("first row %s, want id194", r.ID)
	}
}

// Marks, selection and the cursor staying on its ID across a reload work
// on a source as on rows.
func TestSourceMarksAndReload(t *testing.T) {
	built := 0
	tb := sourceTable(t, 1000, &built)
	run(tb, down)
	run(tb, runes("x")) // marks id1, moves to id2
	run(tb, runes("x"))
	if got := tb.MarkedIDs(); !slices.Equal(got, []string{"id1", "id2"}) {
		t.Fatalf("marked %v", got)
	}
	if got := tb.MarkedIndexes(); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("marked indexes %v", got)
	}
	if i, ok := tb.SelectedIndex(); !ok || i != 3 {
		t.Fatalf("selected %d %v, want 3", i, ok)
	}
	tb.SetSort(1, true)
	tb.SetPrepared(PrepareSource(countingSource{n: 2000, built: &built}))
	if r, _ := tb.Selected(); r.ID != "id3" || tb.Total() != 2000 {
		t.Fatalf("after reload on %s of %d, want id3 of 2000", r.ID, tb.Total())
	}
	tb.AppendRows([]Row{{ID: "late", Cells: []string{"Late", "1"}, Nums: []float64{0, 1}}})
	if tb.Total() != 2001 {
		t.Fatalf("after append %d rows", tb.Total())
	}
}

// PrepareSource wraps a source made ready off the event loop (the
// sources in production are prepared by their views' own commands).
func PrepareSource(src RowSource) Prepared { return Prepared{src: src} }
