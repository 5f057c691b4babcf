package widgets

import (
	"strings"
	"testing"
)

// Issue 29.2, seen by hand at 120x40 (file status, a project's Files tab):
// the names had all they needed and 20 cells more, while the ID column
// read '1c9338e6-121a-45fa-927a-9c9…' and the MIME types 'applica…on/pdf'.
// The spare went by Grow to columns already whole. Room left once the
// names have their need goes to the columns still cut, up to their need,
// before any column grows past what it shows.
func TestSpareGoesToCutColumnsFirst(t *testing.T) {
	fileStatus := []Column{
		{Title: "Name", Width: 12, Min: 8, Grow: 3, Priority: 3, Elide: ElideMiddle},
		{Title: "Status", Width: 21},
		{Title: "In status", Width: 9},
		{Title: "Flag", Width: 5},
		{Title: "ID", Width: 12, Grow: 2},
	}
	// 118: the name's 29 and the ID's 36 fit (29+21+9+5+36 = 100 + 4
	// separators); the last 14 by Grow
	got := layoutWidths(fileStatus, []int{29, 21, 9, 5, 36}, 118)
	if got[4] < 36 || got[0] < 29 {
		t.Errorf("layoutWidths(118) = %v: the ID (need 36) or the name (need 29) is cut while there is room", got)
	}
	if tot := total(got); tot > 118 {
		t.Errorf("total %d over 118", tot)
	}

	tb := NewTable(testTheme(t), keysForTest(), 1, fileStatus)
	id := "1c9338e6-121a-45fa-927a-9c9d0b7e4f11"
	tb.SetRows([]Row{{ID: id, Cells: []string{"Lease (agreed form).pdf", "processing", "10h03m", "stuck", id}}})
	tb.SetSize(120, 5)
	if v := tb.View(); !strings.Contains(v, id) {
		t.Errorf("at 120 columns the ID is cut though the name has room to spare:\n%s", v)
	}
}
