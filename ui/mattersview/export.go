package mattersview

import (
	"fmt"
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable is what e writes: the table the mode shows, its rows as
// filtered and sorted there, under the columns of the command line's CSV
// of the same records, so a file filed from the console and one from a
// script read alike: the receipt list as `matters receipts --csv`, a
// receipt's outcomes as `matters receipt ID --csv` (each pair's request
// beside it), the pairs a preview refuses as outcomes are (no request:
// nothing was sent). IDs are written as recorded, not quoted as drawn;
// times in RFC 3339 UTC with their seconds.
func (m *Model) ExportTable() widgets.TableExport {
	shown := m.table().Export()
	switch m.mode {
	case modeReceipt:
		rows := make([]widgets.Row, len(m.items))
		for i, it := range m.items {
			rows[i] = outcomeRecord(it.Line, it.ClientID, it.MatterID, it.Result, it.Code, it.Detail, strconv.Itoa(it.Request))
		}
		ex := shown.Recast(outcomeRecordColumns(true), widgets.RowsOf(rows))
		if m.matched > len(m.items) { // the view holds the first maxItems: so does the file
			ex = ex.Noting(fmt.Sprintf("the view holds the first %d of %s: `vaultdeck matters receipt %d --csv` writes them all",
				len(m.items), plural.Count(m.matched, "outcome"), m.receipt.ID))
		}
		return ex
	case modePreview:
		rows := make([]widgets.Row, len(m.rejected))
		for i, o := range m.rejected {
			rows[i] = outcomeRecord(o.Line, o.ClientID, o.MatterID, string(o.Result), o.Code, o.Detail, "")
		}
		return shown.Recast(outcomeRecordColumns(false), widgets.RowsOf(rows))
	}
	return shown.Recast(receiptRecordColumns(), widgets.RowsOf(receiptRecords(m.list)))
}

// Exports reports whether a table is shown to export: not while a path is
// typed, a run goes on or a confirmation is open.
func (m *Model) Exports() bool { return m.showsTable() }

// receiptRecordColumns are `matters receipts --csv`'s.
func receiptRecordColumns() []widgets.Column {
	var cols []widgets.Column
	for _, t := range []string{"ID", "ACTION", "STARTED", "PROFILE", "FILE", "PAIRS", "STATUS", "OUTCOMES"} {
		cols = append(cols, widgets.Column{Title: t})
	}
	return cols
}

func receiptRecords(list []store.Receipt) []widgets.Row {
	rows := make([]widgets.Row, len(list))
	for i, rc := range list {
		action := rc.Action
		if rc.RestoreOf != 0 {
			action = fmt.Sprintf("restore of %d", rc.RestoreOf)
		}
		id := strconv.FormatInt(rc.ID, 10)
		rows[i] = widgets.Row{ID: id, Cells: []string{id, action, rc.StartedAt.UTC().Format(time.RFC3339), rc.Profile, rc.FileName,
			strconv.Itoa(rc.Pairs), matters.Status(rc), matters.CountsText(rc.Counts)}}
	}
	return rows
}

// outcomeRecordColumns are `matters receipt ID --csv`'s, the request
// only for pairs that were sent.
func outcomeRecordColumns(request bool) []widgets.Column {
	titles := []string{"line", "client_id", "matter_id", "result", "code", "detail"}
	if request {
		titles = append(titles, "request")
	}
	cols := make([]widgets.Column, len(titles))
	for i, t := range titles {
		cols[i] = widgets.Column{Title: t}
	}
	return cols
}

func outcomeRecord(line int, c, m, result, code, detail, request string) widgets.Row {
	cells := []string{strconv.Itoa(line), sanitize.Line(c), sanitize.Line(m), result, sanitize.Line(code), sanitize.Line(detail)}
	if request != "" {
		cells = append(cells, request)
	}
	return widgets.Row{ID: strconv.Itoa(line), Cells: cells}
}
