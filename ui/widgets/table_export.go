package widgets

import (
	"io"
	"slices"
)

// TableExport is a table as it is shown (its filter and sort applied),
// taken in Update and written by a command: the row source never changes
// once given to the table (a reload gives a new one), so the command reads
// it off the event loop safely.
type TableExport struct {
	cols []Column
	src  RowSource
	rows []int // source indexes in display order
}

// Export takes the table as shown.
func (t *Table) Export() TableExport {
	return TableExport{cols: slices.Clone(t.cols), src: t.src, rows: slices.Clone(t.visible)}
}

// Len is the number of rows the export holds.
func (e TableExport) Len() int { return len(e.rows) }

// WriteCSV writes a header of the column titles and a record a row, each
// cell as the table draws it (a Live column's text as of now), through the
// one CSV writer (CSV: quoting, formulas neutralised).
func (e TableExport) WriteCSV(w io.Writer) error {
	c := NewCSV(w)
	titles := make([]string, len(e.cols))
	for i, col := range e.cols {
		titles[i] = col.Title
	}
	if err := c.Row(titles...); err != nil {
		return err
	}
	cells := make([]string, len(e.cols))
	for _, r := range e.rows {
		row := e.src.Row(r)
		for i, col := range e.cols {
			cells[i] = ""
			if i < len(row.Cells) {
				cells[i] = row.Cells[i]
			}
			if col.Live != nil {
				cells[i], _ = col.Live(row)
			}
		}
		if err := c.Row(cells...); err != nil {
			return err
		}
	}
	return c.Flush()
}
