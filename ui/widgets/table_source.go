package widgets

import tea "github.com/charmbracelet/bubbletea"

// RowSource gives the table its rows on demand. A view whose records are
// already in memory implements it over them, so that the table holds no
// copy: cells are built for the visible window when drawn, text sort keys
// during a sort, and filter haystacks once, by the first filter. A source
// must not change once given to the table (a reload gives a new one): a
// filter command may still read it off the event loop.
type RowSource interface {
	Len() int
	ID(i int) string
	// Row is row i as drawn (cells sanitized, Nums for Live columns).
	Row(i int) Row
	// Text is the cell of column col of row i, as Row(i).Cells[col].
	Text(i, col int) string
	// Num is the sort key of Numeric column col of row i, as Row(i).Nums[col].
	Num(i, col int) float64
}

// sliceRows is the source of rows built up front (SetRows, Prepare).
type sliceRows []Row

func (s sliceRows) Len() int        { return len(s) }
func (s sliceRows) ID(i int) string { return s[i].ID }
func (s sliceRows) Row(i int) Row   { return s[i] }
func (s sliceRows) Text(i, c int) string {
	if c < len(s[i].Cells) {
		return s[i].Cells[c]
	}
	return ""
}
func (s sliceRows) Num(i, c int) float64 {
	if c < len(s[i].Nums) {
		return s[i].Nums[c]
	}
	return 0
}

// materialized returns the table's rows as a slice source, building them
// when the source is another kind (appending to a view's own source).
func materialized(src RowSource) sliceRows {
	if s, ok := src.(sliceRows); ok {
		return s
	}
	s := make(sliceRows, src.Len())
	for i := range s {
		s[i] = src.Row(i)
	}
	return s
}

// SetSource replaces the data with a source. The sort and the filter stay;
// the cursor stays on the same ID when it is still there.
func (t *Table) SetSource(src RowSource) tea.Cmd {
	var keep string
	if r, ok := t.selectedIndex(); ok {
		keep = t.src.ID(r)
	}
	t.src, t.hay = src, nil // haystacks are built by the first filter (completeHay)
	t.pruneMarks()
	return t.reindex(keep)
}

// pruneMarks drops the marks of rows the source no longer holds: a mark
// follows its row by ID, so a reload keeps the marks of rows still there
// and "2 marked" never counts rows that were replaced or are gone. One
// pass over the IDs, and only while something is marked.
func (t *Table) pruneMarks() {
	if len(t.marked) == 0 {
		return
	}
	still := make(map[string]bool, len(t.marked))
	for i := range t.src.Len() {
		if id := t.src.ID(i); t.marked[id] {
			still[id] = true
		}
	}
	t.marked = still
}

// SelectedIndex is the source index of the row under the cursor.
func (t *Table) SelectedIndex() (int, bool) { return t.selectedIndex() }

func (t *Table) selectedIndex() (int, bool) {
	if t.cursor < 0 || t.cursor >= len(t.visible) {
		return -1, false
	}
	return t.visible[t.cursor], true
}

// MarkedIndexes returns the source indexes of the marked rows, in display order.
func (t *Table) MarkedIndexes() []int {
	if len(t.marked) == 0 {
		return nil
	}
	var out []int
	for _, r := range t.visible {
		if t.marked[t.src.ID(r)] {
			out = append(out, r)
		}
	}
	return out
}
