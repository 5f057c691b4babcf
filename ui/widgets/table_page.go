package widgets

import (
	"fmt"

	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TableView is what every list page shares: a table under a header of
// Header lines, its size, input capture while the filter is typed, esc
// while a filter is set, the selected and the marked IDs. A page embeds it
// and defines only what it does differently (a detail pane that also wants
// esc, a second input, IDs mapped to another record).
//
// A page with one table per tab builds it with NewTabbedTableView: Tabs
// holds every tab's table, all sized alike, and Table is the shown one
// (ShowTab), so capture, esc and the selection follow the open tab.
type TableView struct {
	Table         *Table
	Tabs          []*Table // one per tab; empty for a single-table page
	Header        int      // lines the page draws above the table
	Width, Height int
}

// NewTableView builds the base of a list page owned by view.
func NewTableView(th themes.Theme, km keys.Map, view page.ID, cols []Column, header int) TableView {
	return TableView{Table: NewTable(th, km, view, cols), Header: header}
}

// NewTabbedTableView builds the base of a page with one table per tab, a
// table of cols[i] for tab i; the first tab is shown.
func NewTabbedTableView(th themes.Theme, km keys.Map, view page.ID, header int, cols ...[]Column) TableView {
	v := TableView{Header: header, Tabs: make([]*Table, len(cols))}
	for i, c := range cols {
		v.Tabs[i] = NewTable(th, km, view, c)
	}
	v.Table = v.Tabs[0]
	return v
}

// ShowTab makes tab i's table the one the base works on.
func (v *TableView) ShowTab(i int) { v.Table = v.Tabs[i] }

// SetSize implements page.Page: the table (every tab's) gets what the
// header leaves.
func (v *TableView) SetSize(w, h int) {
	v.Width, v.Height = w, h
	if len(v.Tabs) == 0 {
		v.Table.SetSize(w, max(h-v.Header, 3))
	}
	for _, t := range v.Tabs {
		t.SetSize(w, max(h-v.Header, 3))
	}
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

// ExportTable is the shown table as it is shown, for the console's export
// key (e): every page built on a TableView offers it.
func (v *TableView) ExportTable() TableExport { return v.Table.Export() }

// Say adds to q what the table does to its rows that no headless flag
// says: a text filter typed with `/` (unless the view sends it to the
// server, and so says it as a flag itself) to Unsaid, since the command
// lists other rows; a sort other than the one the command prints in (col
// -1: the order rows came in) to Order, since the rows are the same.
func (t *Table) Say(q *page.Query, col int, desc bool) {
	t.SayFilter(q)
	t.SayOrder(q, col, desc)
}

// SayFilter adds the `/` filter in effect to q's Unsaid.
func (t *Table) SayFilter(q *page.Query) {
	if f := t.Filter(); f != "" {
		q.Unsaid = append(q.Unsaid, fmt.Sprintf("the / filter %q: the command lists the rows without it", f))
	}
}

// SayOrder adds a sort other than col's (desc) to q's Order.
func (t *Table) SayOrder(q *page.Query, col int, desc bool) {
	if c, d := t.Sort(); c >= 0 && (c != col || d != desc) && c < len(t.cols) {
		dir := ""
		if d {
			dir = ", reversed"
		}
		q.Order = append(q.Order, fmt.Sprintf("the sort by %s%s: the command prints the same rows in its own order", t.cols[c].Title, dir))
	}
}

// Filter is the `/` filter in effect on the rows here ("": none, or one
// the view sends to the server).
func (t *Table) Filter() string {
	if t.remote {
		return ""
	}
	return t.input.Value()
}
