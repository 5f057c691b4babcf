package cli

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// outcomeTable prints outcome rows with column widths measured in a first
// pass, so a million rows stream out; text/tabwriter would hold every cell
// until the end (hundreds of MB for a million pairs).
type outcomeTable struct {
	w      *bufio.Writer
	widths [5]int // every column but the last (detail)
}

var outcomeHeader = [6]string{"LINE", "CLIENT_ID", "MATTER_ID", "RESULT", "CODE", "DETAIL"}

// outcomeCells are the printed cells of one pair, sanitized.
func outcomeCells(line int, c, m, result, code, detail string) [6]string {
	cells := [6]string{strconv.Itoa(line), quoteBlank(c), quoteBlank(m), result, code, detail}
	for i, s := range cells {
		if s = sanitize.Line(s); s == "" {
			s = "-"
		}
		cells[i] = s
	}
	return cells
}

// outcomeWidths measures rows as measure hands them over.
type outcomeWidths [5]int

func newOutcomeWidths() *outcomeWidths {
	var w outcomeWidths
	for i := range w {
		w[i] = len(outcomeHeader[i])
	}
	return &w
}

func (w *outcomeWidths) add(cells [6]string) {
	for i := range w {
		w[i] = max(w[i], ansi.StringWidth(cells[i]))
	}
}

func newOutcomeTable(out io.Writer, w *outcomeWidths) *outcomeTable {
	t := &outcomeTable{w: bufio.NewWriterSize(out, 64<<10), widths: *w}
	t.row(outcomeHeader)
	return t
}

func (t *outcomeTable) row(cells [6]string) {
	for i, c := range cells {
		t.w.WriteString(c)
		if i < len(t.widths) {
			t.w.WriteString(strings.Repeat(" ", t.widths[i]-ansi.StringWidth(c)+2))
		}
	}
	t.w.WriteByte('\n')
}

func (t *outcomeTable) flush() error { return t.w.Flush() }

func printOutcomes(w io.Writer, outs []matters.Outcome) error {
	cells := func(o matters.Outcome) [6]string {
		return outcomeCells(o.Line, o.ClientID, o.MatterID, string(o.Result), o.Code, o.Detail)
	}
	widths := newOutcomeWidths()
	for _, o := range outs {
		widths.add(cells(o))
	}
	t := newOutcomeTable(w, widths)
	for _, o := range outs {
		t.row(cells(o))
	}
	return t.flush()
}

// writeReportJSON prints a run as one JSON object whose outcomes are
// written one at a time, so a million of them are never encoded at once.
func writeReportJSON(w io.Writer, id int64, rep *matters.Report) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head := map[string]any{"receipt": id, "counts": rep.Counts(), "sent_lines": rep.SentLines, "canceled": rep.Canceled}
	var b strings.Builder
	if err := writeJSON(&b, head); err != nil {
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
		if err := writeJSON(&ob, o); err != nil {
			return err
		}
		bw.WriteString(strings.TrimRight(ob.String(), "\n"))
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}
