package mattersview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Row builders: pure functions of records, tested without a terminal.

func receiptColumns() []widgets.Column {
	return []widgets.Column{
		// what `matters receipt ID` takes, what was done and how it
		// ended stay beside the file's name (priority 1); the time and the
		// count go first (widgets.layoutWidths)
		{Title: "id", Width: 4, Numeric: true, Align: widgets.AlignRight, Priority: 1},
		{Title: "action", Width: 10, Priority: 1},
		{Title: "started", Width: 16, Min: 11, Numeric: true, Elide: widgets.ElideDate, ExportTitle: "started (UTC)"},
		{Title: "file", Width: 18, Min: 10, Grow: 2, Priority: 3, Elide: widgets.ElideMiddle}, // names first: a cut file name is no receipt anyone recognises
		{Title: "pairs", Width: 6, Numeric: true, Align: widgets.AlignRight},
		{Title: "status", Width: 8, Grow: 3, Priority: 1}, // says a restore since: room for it
		{Title: "outcomes", Width: 16, Grow: 3, Priority: 1},
	}
}

func receiptRows(list []store.Receipt) []widgets.Row {
	rows := make([]widgets.Row, len(list))
	for i, r := range list {
		action := r.Action
		if r.RestoreOf != 0 {
			action = fmt.Sprintf("restore %d", r.RestoreOf)
		}
		tone := widgets.ToneNone
		if r.Counts["error"] > 0 || r.Counts["not_sent"] > 0 || r.Status != store.ReceiptComplete {
			tone = widgets.ToneWarn
		}
		rows[i] = widgets.Row{
			ID: strconv.FormatInt(r.ID, 10),
			Cells: []string{strconv.FormatInt(r.ID, 10), action, r.StartedAt.UTC().Format("2006-01-02 15:04"),
				sanitize.Line(r.FileName), strconv.Itoa(r.Pairs), matters.Status(r), countsText(r.Counts)},
			Nums:  []float64{float64(r.ID), 0, float64(r.StartedAt.UnixMilli()), 0, float64(r.Pairs), 0, 0},
			Tones: []widgets.Tone{0, 0, 0, 0, 0, tone, tone},
		}
	}
	return rows
}

func outcomeColumns() []widgets.Column {
	return []widgets.Column{
		{Title: "line", Width: 6, Numeric: true, Align: widgets.AlignRight},
		{Title: "client_id", Width: 10, Grow: 1},
		{Title: "matter_id", Width: 10, Grow: 1},
		{Title: "result", Width: 14},
		{Title: "code", Width: 23},
		{Title: "detail", Width: 16, Grow: 4},
	}
}

// shown quotes an identifier that is blank or has surrounding whitespace,
// so "  " does not look like an empty cell.
func shown(s string) string {
	if s == "" || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	return sanitize.Line(s)
}

func toneOf(result string) widgets.Tone {
	switch result {
	case "error":
		return widgets.ToneAlarm
	case "not_sent":
		return widgets.ToneWarn
	case "already_absent", "unchanged":
		return widgets.ToneMuted
	}
	return widgets.ToneOK
}

func row(line int, c, m, result, code, detail string) widgets.Row {
	t := toneOf(result)
	return widgets.Row{
		ID:    strconv.Itoa(line),
		Cells: []string{strconv.Itoa(line), shown(c), shown(m), result, sanitize.Line(code), sanitize.Line(detail)},
		Nums:  []float64{float64(line), 0, 0, 0, 0, 0},
		Tones: []widgets.Tone{0, 0, 0, t, t, 0},
	}
}

func outcomeRows(outs []matters.Outcome) []widgets.Row {
	rows := make([]widgets.Row, len(outs))
	for i, o := range outs {
		rows[i] = row(o.Line, o.ClientID, o.MatterID, string(o.Result), o.Code, o.Detail)
	}
	return rows
}

func itemRows(items []store.ReceiptItem) []widgets.Row {
	rows := make([]widgets.Row, len(items))
	for i, it := range items {
		rows[i] = row(it.Line, it.ClientID, it.MatterID, it.Result, it.Code, it.Detail)
	}
	return rows
}
