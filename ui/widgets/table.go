// Package widgets holds the pieces views share: the table for large data,
// the typed confirmation dialog, the help overlay, the command line and the
// loading spinner. Nothing here does IO.
package widgets

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Align is a column's alignment.
type Align uint8

// Alignments.
const (
	AlignLeft Align = iota
	AlignRight
)

// Column describes one table column.
type Column struct {
	Title   string
	Width   int   // preferred width in cells (layoutWidths: how the room is shared)
	Grow    int   // share of the spare width; 0 keeps the column at Width
	Align   Align // numbers read better right-aligned
	Numeric bool  // sort by Row.Nums[i] (sizes, times) instead of the text
	// Min is the narrowest the column is squeezed to before it is hidden
	// (0: Width, it does not shrink); Max bounds the width its measured
	// content asks (0: no bound); Priority orders who keeps the room on a
	// narrow screen (higher keeps it longer: names); Elide says how a cell
	// too long is cut.
	Min, Max, Priority int
	Elide              Elide
	// ID columns hold an identifier (a UUID): a cut one identifies
	// nothing, so it is drawn whole or not at all, and it gives way before
	// the name it identifies is cut, whatever its Priority (the ID pane,
	// Y, and the export still have it).
	ID bool
	// ExportOnly columns are never drawn but written by the export key:
	// what a reader of the file needs and the screen has no room for (IDs,
	// absolute UTC times beside a countdown).
	ExportOnly bool
	// RowID columns hold the row's ID (Row.ID), not a cell: with
	// ExportOnly, the ID a reader outside the console looks records up by
	// ("project id"), written by the export, never drawn.
	RowID bool
	// ExportTitle names the column in an export when its screen title is
	// short or empty ("deleted at (UTC)", "file id").
	ExportTitle string
	// Record names the export record's column this one shows when its
	// title does not (the journal's "path", shown as Name): a sort by it
	// is said as --sort of that column when exact (SayExact).
	Record string
	// ExportAt, for a column whose sort key is a Unix time shown relative
	// ("3d04h"), writes beside it in an export a column of this title with
	// the time itself in UTC (RFC 3339): a file read next week still says
	// when.
	ExportAt string
	// Live, when set, computes the cell and its tone at render time, for
	// the visible rows only, replacing Row.Cells[i] and Row.Tones[i] on
	// screen. It is for values that change with the clock ("time in
	// status"): they stay current without rebuilding every row, and the
	// cost of a frame stays independent of the number of rows. Sorting and
	// filtering still use the stored Nums and Cells, so give a Live column a
	// time-invariant sort key (e.g. the start time, not the age).
	Live func(r Row) (text string, tone Tone)
}

// Tone highlights one cell.
type Tone uint8

// Tones, mapped to theme styles.
const (
	ToneNone Tone = iota
	ToneMuted
	ToneOK
	ToneWarn
	ToneAlarm
)

// Row is one record as the table shows it. Cells must already be
// sanitized: the table puts them on the terminal as they are.
type Row struct {
	ID      string
	Cells   []string
	Nums    []float64 // sort keys for Numeric columns, same index as Cells
	Tones   []Tone    // optional per-cell highlight
	Changed bool      // changed since the previous load; marked in the gutter
}

// Table shows large row sets: it renders only the visible window, filters
// incrementally (off the UI goroutine above a size threshold) and sorts by
// any column. Methods have pointer receivers; a view keeps one *Table.
type Table struct {
	theme themes.Theme
	keys  keys.Map
	owner page.ID

	cols    []Column
	widths  []int
	fixed   []bool   // columns a filter fixes: hidden on screen, exported (Fix)
	need    []int    // per column, the content's width measured on a sample of rows (measure)
	typical []int    // per column, what nine rows in ten of the sample need (measure)
	domain  []string // per ElideEmail column, the common domain dropped from its rows

	src     RowSource
	hay     []string // lower-cased searchable text per row, built by the first filter
	order   []int    // every row index, in sort order
	visible []int    // the filtered subset of order, in sort order
	gen     uint64   // bumped on every data change; older filter results are stale

	cursor, offset int
	width, height  int

	sortCol  int // -1: server order
	sortDesc bool

	input     Input
	filtering bool   // the filter input has focus
	query     string // lower-cased query the user asked for
	shown     string // query that visible currently reflects
	remote    bool   // the view filters on the server; the table only collects the query

	marked map[string]bool
	// loading reports whether the view's load runs (SetLoading); nil:
	// the view says nothing, and an empty table is empty.
	loading func() bool

	drawn lineCache // the last frame's lines (table_lines.go)

	// AsyncAbove is the candidate count above which filtering runs in a
	// tea.Cmd instead of inside Update. Zero means 20,000.
	AsyncAbove int
}

// NewTable returns an empty table. owner is the view's ID, so that the
// root routes asynchronous filter results back to this view.
func NewTable(th themes.Theme, km keys.Map, owner page.ID, cols []Column) *Table {
	in := Input{Prompt: "/", PromptStyle: th.Input, CursorStyle: th.TextCursor, CharLimit: 200}
	return &Table{theme: th, keys: km, owner: owner, cols: cols, sortCol: -1, input: in, marked: map[string]bool{}, src: sliceRows(nil)}
}

// SetRemoteFilter makes `/` collect a query for the view to send to the
// server (read it with Query) instead of filtering locally.
func (t *Table) SetRemoteFilter(remote bool) { t.remote = remote }

// SetSize sets the area of the table, including its header and info line.
func (t *Table) SetSize(w, h int) {
	t.width, t.height = w, h
	t.relayout()
	t.input.Width = max(w-4, 1)
	t.clampCursor()
}

// SetColumns replaces the columns (same number and meaning, other widths:
// a view switching layouts) and lays them out again.
func (t *Table) SetColumns(cols []Column) {
	t.cols = cols
	t.measure()
}

// Len is the number of visible (filtered) rows; Total the number loaded.
func (t *Table) Len() int   { return len(t.visible) }
func (t *Table) Total() int { return t.src.Len() }

// Cursor is the cursor's position among the visible rows.
func (t *Table) Cursor() int { return t.cursor }

// Query is the filter text as typed (remote filters read it after Update).
func (t *Table) Query() string { return t.input.Value() }

// Filtering reports whether the filter input has focus.
func (t *Table) Filtering() bool { return t.filtering }

// WantsEsc reports whether esc has something to undo here (typing a
// filter, or an applied filter) before it should mean "back".
func (t *Table) WantsEsc() bool { return t.filtering || t.input.Value() != "" }

// Selected returns the row under the cursor.
func (t *Table) Selected() (Row, bool) {
	r, ok := t.selectedIndex()
	if !ok {
		return Row{}, false
	}
	return t.src.Row(r), true
}

// VisibleIDs returns the IDs of the visible rows, in display order.
func (t *Table) VisibleIDs() []string {
	ids := make([]string, len(t.visible))
	for i, r := range t.visible {
		ids[i] = t.src.ID(r)
	}
	return ids
}

// MarkedIDs returns the IDs marked with the mark key, in display order.
func (t *Table) MarkedIDs() []string {
	var ids []string
	for _, r := range t.MarkedIndexes() {
		ids = append(ids, t.src.ID(r))
	}
	return ids
}

// Update handles navigation, sorting, marking and the filter input. It
// returns a command only when filtering runs asynchronously.
func (t *Table) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case FilterResult:
		t.acceptFilter(msg)
		return nil
	case tea.KeyMsg:
		if t.filtering {
			return t.updateInput(msg)
		}
		return t.handleKey(msg)
	}
	return nil
}

func (t *Table) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := t.keys
	switch {
	case key.Matches(msg, k.Up):
		t.Move(-1)
	case key.Matches(msg, k.Down):
		t.Move(1)
	case key.Matches(msg, k.PageUp):
		t.Move(-t.bodyHeight())
	case key.Matches(msg, k.PageDown):
		t.Move(t.bodyHeight())
	case key.Matches(msg, k.Top):
		t.Move(-len(t.visible))
	case key.Matches(msg, k.Bottom):
		t.Move(len(t.visible))
	case key.Matches(msg, k.SortNext):
		t.SetSort(t.nextSortCol(), t.sortDesc)
	case key.Matches(msg, k.SortReverse):
		if t.sortCol < 0 {
			t.SetSort(0, true)
		} else {
			t.SetSort(t.sortCol, !t.sortDesc)
		}
	case key.Matches(msg, k.Mark):
		if r, ok := t.selectedIndex(); ok {
			if id := t.src.ID(r); t.marked[id] {
				delete(t.marked, id)
			} else {
				t.marked[id] = true
			}
			t.Move(1)
		}
	case key.Matches(msg, k.Filter):
		t.filtering = true
		t.input.Focus()
		return nil
	case msg.Type == tea.KeyEsc && t.input.Value() != "":
		t.input.SetValue("")
		return t.applyQuery("")
	}
	return nil
}

// updateInput edits the filter: enter keeps the filter, esc drops it.
func (t *Table) updateInput(msg tea.KeyMsg) tea.Cmd {
	before := t.input.Value()
	switch t.input.Edit(msg) {
	case Submitted:
		t.filtering = false
		return nil
	case Cancelled:
		t.filtering = false
		t.input.SetValue("")
		return t.applyQuery("")
	}
	if v := t.input.Value(); v != before {
		return t.applyQuery(v)
	}
	return nil
}

// Move moves the cursor by delta rows, keeping it inside the window.
func (t *Table) Move(delta int) {
	t.cursor += delta
	t.clampCursor()
}

func (t *Table) clampCursor() {
	t.cursor = min(max(t.cursor, 0), max(len(t.visible)-1, 0))
	h := t.bodyHeight()
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+h {
		t.offset = t.cursor - h + 1
	}
	t.offset = max(min(t.offset, len(t.visible)-h), 0)
}

// bodyHeight is the number of row lines: the area minus header and info line.
func (t *Table) bodyHeight() int { return max(t.height-2, 1) }

func (t *Table) nextSortCol() int {
	for i := 1; i <= len(t.cols); i++ { // export-only columns are not on screen to sort by
		if c := (t.sortCol + i) % len(t.cols); !t.cols[c].ExportOnly {
			return c
		}
	}
	return -1
}

// rowIndexAtCursor returns the row under the cursor, or -1.
func (t *Table) rowIndexAtCursor() int {
	if t.cursor < 0 || t.cursor >= len(t.visible) {
		return -1
	}
	return t.visible[t.cursor]
}

// restoreCursor puts the cursor back on row r after the visible set changed.
func (t *Table) restoreCursor(r int) {
	if r >= 0 {
		for i, v := range t.visible {
			if v == r {
				t.cursor = i
				t.clampCursor()
				return
			}
		}
	}
	t.clampCursor()
}
