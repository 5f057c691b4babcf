package widgets

import (
	"io"
	"slices"
	"time"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe"
)

// TableExport is a table as it is shown (its filter and sort applied),
// taken in Update and written by a command: the row source never changes
// once given to the table (a reload gives a new one), so the command reads
// it off the event loop safely.
type TableExport struct {
	cols []Column
	src  RowSource
	rows []int  // source indexes in display order
	note string // what the file leaves out, said beside where it went

	// header and record, when set, are the listing's one CSV record
	// (ui/csvsafe/records), the command line's --csv too: the file is
	// the same whichever face wrote it.
	header []string
	record func(src int) []string
	excel  bool
}

// Export takes the table as shown.
func (t *Table) Export() TableExport {
	return TableExport{cols: slices.Clone(t.cols), src: t.src, rows: slices.Clone(t.visible)}
}

// ExportOf is an export of rows of src (source indexes, in order) under
// cols: a page exporting rows it does not show as such (the entries behind
// a grouped view).
func ExportOf(cols []Column, src RowSource, rows []int) TableExport {
	return TableExport{cols: cols, src: src, rows: rows}
}

// Recast is the same rows (as shown: filtered, sorted) written under cols
// from src, a source indexed as the table's: a view whose file carries
// what its screen shortens, quotes or leaves out (a receipt's IDs as
// recorded, each pair's request) under the command line's CSV columns.
func (e TableExport) Recast(cols []Column, src RowSource) TableExport {
	return TableExport{cols: cols, src: src, rows: e.rows, note: e.note, excel: e.excel}
}

// Records is the same rows (as shown: filtered, sorted) written as the
// listing's records (ui/csvsafe/records) instead of the table's cells:
// record is the record of source index src, header its titles.
func (e TableExport) Records(header []string, record func(src int) []string) TableExport {
	e.header, e.record = header, record
	return e
}

// IDOf is the row ID of source index src: a page whose rows a filter
// rebuilds from part of its listing finds the item by it.
func (e TableExport) IDOf(src int) string { return e.src.Row(src).ID }

// Excel is the export in the dialect Excel opens (csvsafe.NewExcelWriter).
func (e TableExport) Excel(on bool) TableExport { e.excel = on; return e }

// Noting is the export with a note of what it leaves out, which the
// status line says beside the file's name (a receipt's view holds its
// first 100,000 outcomes: the file has no more).
func (e TableExport) Noting(note string) TableExport { e.note = note; return e }

// Note is what the export leaves out ("" when nothing).
func (e TableExport) Note() string { return e.note }

// RowsOf is a source of rows built up front, for ExportOf and Recast.
func RowsOf(rows []Row) RowSource { return sliceRows(rows) }

// Len is the number of rows the export holds.
func (e TableExport) Len() int { return len(e.rows) }

// WriteCSV writes a header of the column titles and a record a row, each
// cell as the table draws it (a Live column's text as of now), through the
// one CSV writer (csvsafe: quoting, formulas neutralised). Export-only columns
// are written too (a RowID column's the row IDs), an ExportAt column's
// time beside it.
func (e TableExport) WriteCSV(w io.Writer) error {
	c := csvsafe.New(w, e.excel)
	if err := c.Row(e.Header()...); err != nil {
		return err
	}
	for _, r := range e.rows {
		if err := c.Row(e.Record(r)...); err != nil {
			return err
		}
	}
	return c.Flush()
}

// Header is the file's header: the listing's record's titles, or the
// columns' (an ExportAt column's time's title beside its own).
func (e TableExport) Header() []string {
	if e.record != nil {
		return e.header
	}
	var titles []string
	for _, col := range e.cols {
		t := col.Title
		if col.ExportTitle != "" {
			t = col.ExportTitle
		}
		titles = append(titles, t)
		if col.ExportAt != "" {
			titles = append(titles, col.ExportAt)
		}
	}
	return titles
}

// Record is the file's record of source index r: the listing's record,
// or each cell as the table draws it (a Live column's text as of now, a
// RowID column's the row ID, a date as RFC 3339).
func (e TableExport) Record(r int) []string {
	if e.record != nil {
		return e.record(r)
	}
	row := e.src.Row(r)
	cells := make([]string, 0, len(e.cols))
	for i, col := range e.cols {
		cell := ""
		if i < len(row.Cells) {
			cell = row.Cells[i]
		}
		if col.Live != nil {
			cell, _ = col.Live(row)
		}
		if col.RowID {
			cell = row.ID
		}
		if col.Elide == ElideDate {
			cell = exportTime(col, row, i, cell)
		}
		cells = append(cells, cell)
		if col.ExportAt != "" {
			cells = append(cells, utcAt(row, i))
		}
	}
	return cells
}

// exportTime writes a date column's cell as RFC 3339 in UTC with its
// seconds, whatever the screen shortened it to ("2026-11-26 14:05",
// "2026-11-26"): from its sort key (Unix seconds) when it is Numeric, else
// from its text, a UTC "2006-01-02 15:04:05". A cell that is neither ("-")
// is written as it is.
func exportTime(col Column, row Row, i int, cell string) string {
	if col.Numeric {
		if at := utcAt(row, i); at != "" {
			return at
		}
		return cell
	}
	if t, err := time.Parse(time.DateTime, cell); err == nil {
		return t.UTC().Format(time.RFC3339)
	}
	return cell
}

// utcAt is row's sort key of column i read as Unix seconds, in UTC ("" when unknown).
func utcAt(row Row, i int) string {
	if i >= len(row.Nums) || row.Nums[i] == 0 {
		return ""
	}
	return time.Unix(int64(row.Nums[i]), 0).UTC().Format(time.RFC3339)
}
