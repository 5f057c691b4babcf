package widgets

import (
	"strconv"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// TestCentreAndShift: Centre draws the cursor's row mid-window (clamped at
// the ends); Shift keeps the picture when rows arrive above.
func TestCentreAndShift(t *testing.T) {
	tb := NewTable(testTheme(t), keys.New(false), 1, []Column{{Title: "n", Width: 6}})
	rows := make([]Row, 100)
	for i := range rows {
		rows[i] = Row{ID: strconv.Itoa(i), Cells: []string{strconv.Itoa(i)}}
	}
	tb.SetRows(rows)
	tb.SetSize(20, 12) // 10 row lines
	tb.Move(50)
	if tb.offset != 41 {
		t.Fatalf("moved down to 50: offset %d", tb.offset)
	}
	tb.Centre()
	if tb.offset != 45 || tb.cursor != 50 {
		t.Fatalf("centred on 50: offset %d cursor %d, want 45 and 50", tb.offset, tb.cursor)
	}
	tb.Move(-50)
	tb.Centre()
	if tb.offset != 0 {
		t.Fatalf("centred on the first row: offset %d", tb.offset)
	}
	tb.Move(99)
	tb.Centre()
	if tb.offset != 90 {
		t.Fatalf("centred on the last row: offset %d", tb.offset)
	}
	tb.Move(-45) // row 54, drawn on the window's 5th line
	at := tb.cursor - tb.offset
	more := append(make([]Row, 0, 120), rows...)
	for i := 100; i < 120; i++ {
		more = append([]Row{{ID: strconv.Itoa(i), Cells: []string{strconv.Itoa(i)}}}, more...)
	}
	tb.SetRows(more)
	tb.Shift(20)
	if tb.cursor-tb.offset != at {
		t.Fatalf("after 20 rows above and Shift(20) the cursor's row is drawn on line %d, was %d", tb.cursor-tb.offset, at)
	}
}
