package printer

import (
	"bufio"
	"io"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Aligned prints a table whose rows can be walked twice (held, or read
// again from the store): widths first, then the rows, each cell cleaned as
// every table's is ("-" for empty), columns two spaces apart, the last one
// unpadded. rows calls row for the header and then each row, in order; a
// second walk must hand the same rows. Nothing is held but one row: a
// million outcomes of a receipt stream out, and a held table is not copied
// a second time (text/tabwriter keeps every cell until it flushes: for
// 9,000 bin entries with 10 KB names that doubled the peak to 445 MB).
//
// A cell's width is its count of runes, as text/tabwriter counts it (the
// held tables' bytes have not changed since they were tabwriter's), where
// the streamed listings' columns count cells on screen (columns, AlignedOnScreen):
// the two differ for wide characters (日本語 is 3 runes, 6 cells).
func Aligned(w io.Writer, rows func(row func(cells []string)) error) error {
	return aligned(w, utf8.RuneCountInString, rows)
}

// AlignedOnScreen is Aligned with widths in terminal cells, as the
// streamed listings' columns count them (a run's outcomes).
func AlignedOnScreen(w io.Writer, rows func(row func(cells []string)) error) error {
	return aligned(w, ansi.StringWidth, rows)
}

func aligned(w io.Writer, width func(string) int, rows func(row func(cells []string)) error) error {
	var widths []int
	if err := rows(func(row []string) {
		for j := 0; j < len(row)-1; j++ { // the last column is not padded
			if j >= len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], width(cleanCell(row[j])))
		}
	}); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, outBuffer)
	err := rows(func(row []string) {
		for j, c := range row {
			c = cleanCell(c)
			bw.WriteString(c)
			if j < len(row)-1 {
				bw.WriteString(spaces(widths[j] - width(c) + 2))
			}
		}
		bw.WriteByte('\n')
	})
	if ferr := bw.Flush(); err == nil { // the rows before an error still go out
		err = ferr
	}
	return err
}
