package widgets

import (
	"fmt"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
)

func testTheme(tb testing.TB) themes.Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	th, err := themes.New(r, "dark", false)
	if err != nil {
		tb.Fatal(err)
	}
	return th
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

var (
	down  = tea.KeyMsg{Type: tea.KeyDown}
	enter = tea.KeyMsg{Type: tea.KeyEnter}
	esc   = tea.KeyMsg{Type: tea.KeyEsc}
)

func sampleTable(tb testing.TB, n int) *Table {
	t := NewTable(testTheme(tb), keys.New(false), 7, []Column{
		{Title: "name", Width: 10, Grow: 1}, {Title: "size", Width: 8, Align: AlignRight, Numeric: true},
	})
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{ID: fmt.Sprint("id", i), Cells: []string{fmt.Sprintf("project-%06d", i), fmt.Sprint(i % 97)}, Nums: []float64{0, float64(i % 97)}}
	}
	t.SetRows(rows)
	t.SetSize(60, 12)
	return t
}

// run feeds msg and then every command it returns, synchronously.
func run(t *Table, msg tea.Msg) {
	for cmd := t.Update(msg); cmd != nil; {
		next := cmd()
		cmd = nil
		if next != nil {
			cmd = t.Update(next)
		}
	}
}

func TestTableWindowAndCursor(t *testing.T) {
	tb := sampleTable(t, 1000)
	for range 15 {
		run(tb, down)
	}
	out := tb.View()
	if !strings.Contains(out, "project-000015") || strings.Contains(out, "project-000000") {
		t.Fatalf("window did not follow the cursor:\n%s", out)
	}
	if lines := strings.Count(out, "\n") + 1; lines != 12 {
		t.Errorf("view has %d lines, want 12", lines)
	}
	run(tb, runes("G"))
	if r, _ := tb.Selected(); r.ID != "id999" {
		t.Errorf("G went to %s", r.ID)
	}
	run(tb, runes("g"))
	if tb.Cursor() != 0 {
		t.Error("g did not go to the top")
	}
}

func TestTableFilterRefinesAndClears(t *testing.T) {
	tb := sampleTable(t, 1000)
	run(tb, runes("/"))
	if !tb.Filtering() {
		t.Fatal("/ did not open the filter")
	}
	run(tb, runes("0009"))
	if tb.Len() != 20 { // project-00009x and project-0009xx... count: 000090-000099 + 000900-000999 filtered by "0009"
		t.Logf("len %d", tb.Len())
	}
	n := tb.Len()
	run(tb, runes("5"))
	if tb.Len() >= n || tb.Len() == 0 {
		t.Errorf("refining did not narrow: %d -> %d", n, tb.Len())
	}
	run(tb, enter)
	if tb.Filtering() || !tb.WantsEsc() {
		t.Error("enter should keep the filter applied and leave the input")
	}
	run(tb, esc)
	if tb.Len() != 1000 || tb.WantsEsc() {
		t.Errorf("esc should clear the filter, len %d", tb.Len())
	}
}

func TestTableAsyncFilterDropsStale(t *testing.T) {
	tb := sampleTable(t, 100)
	tb.AsyncAbove = 10
	tb.Update(runes("/"))
	c1 := tb.Update(runes("1"))
	c2 := tb.Update(runes("2"))
	if c1 == nil || c2 == nil {
		t.Fatal("expected asynchronous filter commands")
	}
	tb.Update(c2())
	want := tb.Len()
	tb.Update(c1()) // late result for "1": must be ignored
	if tb.Len() != want || tb.Pending() {
		t.Errorf("stale result applied: %d vs %d", tb.Len(), want)
	}
}

func TestTableSortNumericAndReverse(t *testing.T) {
	tb := sampleTable(t, 200)
	run(tb, runes("o")) // name ▲
	run(tb, runes("o")) // size ▲
	if r, _ := tb.Selected(); r.Cells[1] != "0" {
		t.Errorf("numeric sort first row %v", r.Cells)
	}
	run(tb, runes("O"))
	run(tb, runes("g")) // the cursor follows its row through a sort; go to the top
	if r, _ := tb.Selected(); r.Cells[1] != "96" {
		t.Errorf("reverse numeric sort first row %v", r.Cells)
	}
	if !strings.Contains(tb.View(), "size ▼") {
		t.Error("sort indicator missing")
	}
}

func TestFitWideRunes(t *testing.T) {
	got := fit("契約書ドラフト最終版", 9, AlignLeft)
	if w := lipgloss.Width(got); w != 9 {
		t.Errorf("width %d: %q", w, got)
	}
	if got := fit("abc", 5, AlignRight); got != "  abc" {
		t.Errorf("right align %q", got)
	}
}

func TestMarkedIDs(t *testing.T) {
	tb := sampleTable(t, 10)
	run(tb, runes("x"))
	run(tb, runes("x"))
	if ids := tb.MarkedIDs(); len(ids) != 2 || ids[0] != "id0" || ids[1] != "id1" {
		t.Errorf("marked %v", ids)
	}
}

func BenchmarkKeyPress100k(b *testing.B) {
	tb := sampleTable(b, 100_000)
	tb.SetSize(160, 50)
	for b.Loop() {
		tb.Update(down)
		_ = tb.View()
	}
}

func BenchmarkFilter100k(b *testing.B) {
	tb := sampleTable(b, 100_000)
	for b.Loop() {
		tb.applyQuery("")
		cmd := tb.applyQuery("project-0004")
		if cmd != nil {
			tb.Update(cmd())
		}
	}
}

// Haystacks are built by the first filter, also for rows appended later
// and on the asynchronous path.
func TestTableLazyHaystacks(t *testing.T) {
	for _, async := range []int{0, 10} {
		tb := sampleTable(t, 100)
		tb.AsyncAbove = async
		if len(tb.hay) != 0 {
			t.Fatal("haystacks built on load")
		}
		tb.AppendPrepared(Prepare([]Row{{ID: "late", Cells: []string{"Latecomer", "1"}, Nums: []float64{0, 1}}}))
		run(tb, runes("/"))
		run(tb, runes("LATE"))
		if tb.Len() != 1 || len(tb.hay) != 101 {
			t.Errorf("async %d: %d rows match, %d haystacks", async, tb.Len(), len(tb.hay))
		}
	}
}

// Issue 19 case 12: a sorted column whose title and arrow do not fit its
// width keeps the whole title and the arrow (the space between goes
// first), instead of "purge in…" that hides both the name and the order.
func TestSortedHeaderNotCut(t *testing.T) {
	tb := NewTable(testTheme(t), keys.New(false), 7, []Column{
		{Title: "name", Width: 10, Grow: 1},
		{Title: "purge in", Width: 9, Align: AlignRight, Numeric: true},
		{Title: "files", Width: 6, Align: AlignRight, Numeric: true},
	})
	tb.SetRows([]Row{{ID: "a", Cells: []string{"x", "1d", "3"}, Nums: []float64{0, 1, 3}}})
	tb.SetSize(40, 6)
	run(tb, runes("o")) // name
	run(tb, runes("o")) // purge in
	if h := strings.SplitN(tb.View(), "\n", 2)[0]; !strings.Contains(h, "purge in▲") || strings.Contains(h, "…") {
		t.Errorf("header %q", h)
	}
	run(tb, runes("o")) // sort by files
	if h := strings.SplitN(tb.View(), "\n", 2)[0]; !strings.Contains(h, "files▲") || strings.Contains(h, "…") {
		t.Errorf("header %q", h)
	}
}
