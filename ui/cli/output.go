package cli

import (
	"io"
	"text/tabwriter"

	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// timeLayout is the one time format of human output: UTC, so that output
// does not depend on the machine's zone.
const timeLayout = "2006-01-02 15:04"

// table prints aligned columns; every cell passes through sanitize.Line,
// because server strings may carry terminal escape sequences. With --csv
// the same rows are CSV records instead (csvsafe: quoting, formula
// neutralising), so every listing gets CSV from the one writer.
type table struct {
	tw *tabwriter.Writer
	cw *csvsafe.Writer
}

func newTable(w io.Writer, headers ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)}
	t.row(headers...)
	return t
}

// table starts the command's table: CSV with --csv, else aligned text.
func (r *runner) table(headers ...string) *table {
	if !r.g.CSV {
		return newTable(r.env.Stdout, headers...)
	}
	t := &table{cw: csvsafe.NewWriter(r.env.Stdout)}
	t.row(headers...)
	return t
}

func (t *table) row(cells ...string) {
	if t.cw != nil {
		_ = t.cw.Row(cells...) // a write error is kept by the writer and reported by flush
		return
	}
	for i, c := range cells {
		c = sanitize.Line(c)
		if c == "" {
			c = "-"
		}
		if i > 0 {
			io.WriteString(t.tw, "\t")
		}
		io.WriteString(t.tw, c)
	}
	io.WriteString(t.tw, "\n")
}

func (t *table) flush() error {
	if t.cw != nil {
		return t.cw.Flush()
	}
	return t.tw.Flush()
}

// writeJSON prints v as indented JSON (printer.WriteJSON).
func writeJSON(w io.Writer, v any) error { return printer.WriteJSON(w, v) }
