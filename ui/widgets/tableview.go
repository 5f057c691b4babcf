package widgets

import (
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TableView is what every list page shares: a table under a header of
// Header lines, its size, input capture while the filter is typed, esc
// while a filter is set, the selected and the marked IDs. A page embeds it
// and defines only what it does differently (a detail pane that also wants
// esc, a second input, IDs mapped to another record).
type TableView struct {
	Table         *Table
	Header        int // lines the page draws above the table
	Width, Height int
}

// NewTableView builds the base of a list page owned by view.
func NewTableView(th themes.Theme, km keys.Map, view page.ID, cols []Column, header int) TableView {
	return TableView{Table: NewTable(th, km, view, cols), Header: header}
}

// SetSize implements page.Page: the table gets what the header leaves.
func (v *TableView) SetSize(w, h int) {
	v.Width, v.Height = w, h
	v.Table.SetSize(w, max(h-v.Header, 3))
}

// CapturesInput implements page.InputCapturer: true while the filter is typed.
func (v *TableView) CapturesInput() bool { return v.Table.Filtering() }

// WantsEsc implements page.EscHandler: true while a filter is set.
func (v *TableView) WantsEsc() bool { return v.Table.WantsEsc() }

// SelectedID implements page.Selector.
func (v *TableView) SelectedID() string {
	r, _ := v.Table.Selected()
	return r.ID
}

// MarkedIDs are the rows marked with x, for `y`.
func (v *TableView) MarkedIDs() []string { return v.Table.MarkedIDs() }
