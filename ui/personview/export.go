package personview

import (
	"strconv"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable implements the console's e (issue 42): the part on screen,
// the records `person EMAIL --csv --section PART` prints (records.PersonPart).
func (m *Model) ExportTable() widgets.TableExport {
	headers, rows := records.PersonPart(m.rep, partNames[m.part])
	cols := make([]widgets.Column, len(headers))
	for i, h := range headers {
		cols[i] = widgets.Column{Title: h}
	}
	out := make([]widgets.Row, len(rows))
	idx := make([]int, len(rows))
	for i, r := range rows {
		out[i], idx[i] = widgets.Row{ID: strconv.Itoa(i), Cells: r}, i
	}
	return widgets.ExportOf(cols, widgets.RowsOf(out), idx)
}

// Exports says e has a part to write: once the report is read.
func (m *Model) Exports() bool { return m.rep != nil }
