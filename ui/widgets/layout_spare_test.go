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
	// the file status view's columns (ui/filestatusview): the status, its age
	// and the flag are what the view is for (priority 1), the ID whole or
	// not at all
	fileStatus := []Column{
		{Title: "Name", Width: 12, Min: 8, Grow: 3, Priority: 3, Elide: ElideMiddle},
		{Title: "Status", Width: 21, Priority: 1},
		{Title: "In status", Width: 9, Priority: 1},
		{Title: "Flag", Width: 5, Priority: 1},
		{Title: "ID", Width: 36, ID: true},
	}
	// 118: the name's 29 and the ID's 36 fit (29+21+9+5+36 = 100 + 4
	// separators); the last 14 by Grow
	got := layoutWidths(fileStatus, []int{29, 21, 9, 5, 36}, nil, 118)
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

// Issue 29.2, seen by hand over serve at 60x16: file status read
// 'Witne… redacted).pdf' beside a Status column of 21 cells holding
// 'processing' (10): a column kept the width of the longest status it
// might show while the names were cut. On a narrow line a column first
// gives back what its cells (and title) do not use, then the names give
// way.
func TestColumnsGiveBackWhatTheyDoNotShow(t *testing.T) {
	// the file status view's columns (ui/filestatusview): the status, its age
	// and the flag are what the view is for (priority 1), the ID whole or
	// not at all
	fileStatus := []Column{
		{Title: "Name", Width: 12, Min: 8, Grow: 3, Priority: 3, Elide: ElideMiddle},
		{Title: "Status", Width: 21, Priority: 1},
		{Title: "In status", Width: 9, Priority: 1},
		{Title: "Flag", Width: 5, Priority: 1},
		{Title: "ID", Width: 36, ID: true},
	}
	tb := NewTable(testTheme(t), keysForTest(), 1, fileStatus)
	tb.SetRows([]Row{
		{ID: "a", Cells: []string{"Witness Statement of A. Okafor (first draft, redacted).pdf", "processing", "16m14s", "stuck", "6b3c914c-34a2-4445-8e8e-9f1f6b0b1a01"}},
		{ID: "b", Cells: []string{"Witness Statement of A. Okafor (first draft, unredacted).pdf", "processing", "16m14s", "stuck", "775ca897-9fb6-46b3-8e8e-9f1f6b0b1a02"}},
	})
	tb.SetSize(60, 6)
	v := tb.View()
	if strings.Contains(v, "processing    ") || !strings.Contains(v, "Witness Stat") {
		t.Errorf("at 60 columns the status column keeps room it does not use while the names are cut:\n%s", v)
	}
	// what is shown whole stays whole
	if !strings.Contains(v, "processing") || !strings.Contains(v, "16m14s") {
		t.Errorf("a column was cut below what it shows:\n%s", v)
	}
}

// A column given back to its title's width still has room for the sort
// arrow when sorted (issue 19 case 12's 'purge in▲', not 'purge i▲').
func TestGivenBackColumnKeepsItsSortArrow(t *testing.T) {
	tb := NewTable(testTheme(t), keysForTest(), 1, binLike)
	tb.SetRows([]Row{{ID: "1", Cells: []string{"Bellhaven Shipping v. Tandem Freight — Refinancing", "z.lombardi@harrowgate-law.com", "2026-05-31 14:21", "2d", "153", ""}}})
	tb.SetSort(3, false)
	for _, w := range []int{60, 80} {
		tb.SetSize(w, 5)
		if v := tb.View(); !strings.Contains(v, "purge in▲") {
			t.Errorf("at %d columns the sorted title is cut:\n%s", w, v)
		}
	}
}

// An ID column is drawn whole or not at all, and it goes before the name
// beside it is cut (issue 29.2: a person's projects at 80 columns).
func TestIDColumnIsWholeOrHidden(t *testing.T) {
	cols := []Column{
		{Title: "PROJECT", Width: 20, Min: 10, Grow: 3, Priority: 3, Elide: ElideMiddle},
		{Title: "ACCESS", Width: 6, Priority: 2},
		{Title: "PROJECT ID", Width: 36, Priority: 1, ID: true},
	}
	need := []int{43, 6, 36}
	for avail := 10; avail <= 130; avail++ {
		w := layoutWidths(cols, need, nil, avail)
		if w[2] != 0 && w[2] != 36 {
			t.Errorf("at %d the ID is %d cells: cut", avail, w[2])
		}
		if w[2] != 0 && w[0] < need[0] {
			t.Errorf("at %d the ID is shown while the name is cut to %d", avail, w[0])
		}
	}
}
