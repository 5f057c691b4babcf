// Package csvsafe writes tables as CSV files a spreadsheet opens safely:
// one writer for the command line's --csv and the console's export key, so
// the quoting and the defence against formula injection are decided once.
// A leaf: the command line's printer and the console's widgets both import
// it, and it imports nothing of theirs.
package csvsafe

import (
	"encoding/csv"
	"io"
	"strings"

	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Writer writes records with RFC 4180 quoting (encoding/csv: a field with a
// comma, a quote or a line break is quoted, its quotes doubled). Lines end
// in LF, which Excel, LibreOffice and every CSV reader accept, and which
// scripts that read the output line by line expect. Every cell passes
// through Cell.
type Writer struct {
	w *csv.Writer
}

// NewWriter starts a CSV on w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: csv.NewWriter(w)}
}

// BOM is UTF-8's byte order mark: Excel reads a CSV as UTF-8 only when
// the file begins with it (without, "—" shows as "â€”").
const BOM = "\ufeff"

// NewExcelWriter starts a CSV in the dialect Excel opens as it is: the BOM
// first, lines ending in CRLF (RFC 4180's own), the rest as NewWriter. The
// BOM is written with the first record, so a writer that writes nothing
// leaves nothing.
func NewExcelWriter(w io.Writer) *Writer {
	cw := csv.NewWriter(&bomWriter{w: w})
	cw.UseCRLF = true
	return &Writer{w: cw}
}

// bomWriter writes the BOM before its first bytes.
type bomWriter struct {
	w    io.Writer
	done bool
}

func (b *bomWriter) Write(p []byte) (int, error) {
	if !b.done && len(p) > 0 {
		b.done = true
		if _, err := io.WriteString(b.w, BOM); err != nil {
			return 0, err
		}
	}
	return b.w.Write(p)
}

// New is NewExcelWriter when excel, else NewWriter.
func New(w io.Writer, excel bool) *Writer {
	if excel {
		return NewExcelWriter(w)
	}
	return NewWriter(w)
}

// Row writes one record.
func (c *Writer) Row(cells ...string) error {
	rec := make([]string, len(cells))
	for i, s := range cells {
		rec[i] = Cell(s)
	}
	return c.w.Write(rec)
}

// Flush pushes buffered records to the writer and reports the first error.
func (c *Writer) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// Cell makes one server string fit for a spreadsheet cell. Terminal escape
// sequences and control characters go (the file may be printed to a
// terminal with cat; line breaks stay, quoted). A cell a spreadsheet would
// read as a formula, one starting with =, +, -, @, a tab or a carriage
// return (OWASP's list), gets a leading apostrophe, which Excel and
// LibreOffice show as text: a project named =HYPERLINK(...) stays a name.
// A plain number (-12, 3.5) is left alone: it is data, not a formula.
func Cell(s string) string {
	// Checked on the raw text too: sanitizing turns a leading tab or CR
	// into a space and strips a leading escape sequence, which could
	// uncover an = behind it.
	risky := func(s string) bool { return s != "" && strings.ContainsAny(s[:1], "=+-@\t\r") && !isNumber(s) }
	clean := sanitize.Text(s)
	if risky(s) || risky(clean) {
		return "'" + clean
	}
	return clean
}

// isNumber reports whether s is an optionally signed decimal number.
func isNumber(s string) bool {
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && digits > 0:
			dot = true
		default:
			return false
		}
	}
	return digits > 0 && s[len(s)-1] != '.'
}
