package widgets

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// A page with a table per tab: every tab is sized alike (a tab shown after
// a resize is laid out for the new size), and the selection, capture and
// esc follow the tab shown.
func TestTabbedTableView(t *testing.T) {
	cols := []Column{{Title: "name", Width: 10, Grow: 1}}
	v := NewTabbedTableView(testTheme(t), keys.New(false), 7, 2, cols, cols)
	v.Tabs[0].SetRows([]Row{{ID: "u1", Cells: []string{"user"}}})
	v.Tabs[1].SetRows([]Row{{ID: "f1", Cells: []string{"file"}}})
	v.SetSize(50, 20)
	for i, tb := range v.Tabs {
		if tb.width != 50 || tb.height != 18 {
			t.Errorf("tab %d sized %dx%d, want 50x18", i, tb.width, tb.height)
		}
	}
	if got := v.SelectedID(); got != "u1" {
		t.Errorf("first tab selected %q, want u1", got)
	}
	v.ShowTab(1)
	if got := v.SelectedID(); got != "f1" {
		t.Errorf("second tab selected %q, want f1", got)
	}
	run(v.Table, runes("/"))
	if !v.CapturesInput() {
		t.Error("typing a filter in the shown tab does not capture input")
	}
	v.ShowTab(0)
	if v.CapturesInput() {
		t.Error("the first tab captures input while the filter is typed in the second")
	}
}
