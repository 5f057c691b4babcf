package printer

import (
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// columns writes a paged listing's rows aligned on column widths set by
// the header and the first page, so every later page lines up under the
// same header without the listing being held whole (tabwriter aligns each
// flush on its own: a short first page and long later ones did not line
// up). A later cell wider than its column pushes the rest of its own row
// right, and only that row: the rows after it line up again.
type columns struct {
	w      io.Writer
	at     func() int64 // what stdout was given so far (Printer.givenSoFar)
	widths []int
}

// cleanRow cleans a row for the terminal: server strings lose control and
// escape sequences, and an empty cell shows as "-".
func cleanRow(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = cleanCell(c)
	}
	return out
}

func cleanCell(c string) string {
	if c = sanitize.Line(c); c == "" {
		return "-"
	}
	return c
}

// block writes rows (already cleaned); the first call's rows set the widths.
// ends, when given, is told where each row's line ends in what stdout was
// given (c.at: its count before the block).
func (c *columns) block(rows [][]string, ends *[]int64) error {
	if c.widths == nil {
		for _, row := range rows {
			c.widen(row)
		}
	}
	var b strings.Builder
	for _, row := range rows {
		at, want := 0, 0 // where the line is, and where the cell should start
		for i, cell := range row {
			if i > 0 {
				// Two spaces at least; more to reach the column's start
				// when an earlier cell overflowed less than the padding.
				pad := max(2, want-at)
				b.WriteString(spaces(pad))
				at += pad
			}
			b.WriteString(cell)
			at += ansi.StringWidth(cell)
			if i < len(c.widths) {
				want += c.widths[i] + 2
			}
		}
		b.WriteByte('\n')
		if ends != nil {
			*ends = append(*ends, int64(b.Len()))
		}
	}
	if ends != nil && c.at != nil {
		at := c.at()
		for i := range *ends {
			(*ends)[i] += at
		}
	}
	_, err := io.WriteString(c.w, b.String())
	return err
}

func (c *columns) widen(row []string) {
	for len(c.widths) < len(row) {
		c.widths = append(c.widths, 0)
	}
	for i, cell := range row {
		c.widths[i] = max(c.widths[i], ansi.StringWidth(cell))
	}
}

const spaceRun = "                                                                "

// spaces is n spaces, without allocating for the usual widths.
func spaces(n int) string {
	if n <= len(spaceRun) {
		return spaceRun[:n]
	}
	return strings.Repeat(" ", n)
}
