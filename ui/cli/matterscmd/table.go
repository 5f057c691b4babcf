package matterscmd

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// outcomeHeader and outcomeCells are a run's outcome table: widths in
// terminal cells (printer.AlignedOnScreen), measured in a first pass so a
// million rows stream out.
var outcomeHeader = []string{"LINE", "CLIENT_ID", "MATTER_ID", "RESULT", "CODE", "DETAIL"}

// outcomeCells are the printed cells of one pair, sanitized.
func outcomeCells(line int, c, m, result, code, detail string) []string {
	cells := []string{strconv.Itoa(line), quoteBlank(c), quoteBlank(m), result, code, detail}
	for i, s := range cells {
		if s = sanitize.Line(s); s == "" {
			s = "-"
		}
		cells[i] = s
	}
	return cells
}

func printOutcomes(w io.Writer, outs []matters.Outcome) error {
	return printer.AlignedOnScreen(w, func(row func([]string)) error {
		row(outcomeHeader)
		for _, o := range outs {
			row(outcomeCells(o.Line, o.ClientID, o.MatterID, string(o.Result), o.Code, o.Detail))
		}
		return nil
	})
}

// writeReportJSON prints a run as one JSON object whose outcomes are
// written one at a time, so a million of them are never encoded at once.
func writeReportJSON(w io.Writer, id int64, rep *matters.Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head := map[string]any{"receipt": id, "counts": rep.Counts(), "sent_lines": rep.SentLines, "canceled": rep.Canceled}
	var b strings.Builder
	if err := printer.WriteJSON(&b, head); err != nil {
		return err
	}
	// Reopen the object: drop its closing brace and add the array.
	s := strings.TrimRight(b.String(), "\n")
	bw.WriteString(strings.TrimSuffix(s, "}"))
	bw.WriteString(`  ,"outcomes": [` + "\n")
	for i, o := range rep.Outcomes {
		if i > 0 {
			bw.WriteString(",\n")
		}
		var ob strings.Builder
		if err := printer.WriteJSON(&ob, o); err != nil {
			return err
		}
		bw.WriteString(strings.TrimRight(ob.String(), "\n"))
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}
