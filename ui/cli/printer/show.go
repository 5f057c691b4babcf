package printer

import (
	"bytes"
	"fmt"
	"io"
	"reflect"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe"
)

// Value is one result of a command (an object, or a short list of the
// command's own values), as every format shows it: the command says it
// all, and the printer picks.
type Value struct {
	// JSON is encoded for --json (indented) and --jsonl (one line; a list,
	// a line per element).
	JSON any
	// Raw, instead of JSON, is the service's own object: one line.
	Raw []byte
	// Headers and Rows are the table's and the CSV's (Empty, when set, is
	// what the table says instead of a header alone). Text, when set, is
	// the human form instead of the table, and the CSV's too when there
	// are no Headers.
	Headers []string
	Rows    [][]string
	Empty   string
	Text    func(w io.Writer) error
	// Aside is a line for the person reading the table or the CSV, on
	// stderr before it (which snapshot answered); JSON has none.
	Aside string
}

// Show prints v as the chosen format wants it.
func (p *Printer) Show(v Value) error {
	w := p.Out()
	switch f := p.format(); {
	case (f == JSON || f == JSONL) && v.Raw != nil:
		_, err := w.Write(append(safeRaw(nil, bytes.TrimSpace(v.Raw)), '\n'))
		return err
	case f == JSON:
		return WriteJSON(w, v.JSON)
	case f == JSONL:
		if rv := reflect.ValueOf(v.JSON); rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
			for i := range rv.Len() {
				if err := WriteJSONLine(w, rv.Index(i).Interface()); err != nil {
					return err
				}
			}
			return nil
		}
		return WriteJSONLine(w, v.JSON)
	}
	if v.Aside != "" {
		if _, err := fmt.Fprintln(p.Err(), v.Aside); err != nil {
			return err
		}
	}
	switch f := p.format(); {
	case f == CSV && v.Headers != nil:
		return p.WriteCSV(v.Headers, v.Rows)
	case v.Text != nil:
		return v.Text(w)
	case len(v.Rows) == 0 && v.Empty != "":
		_, err := io.WriteString(w, v.Empty+"\n")
		return err
	}
	return Aligned(w, func(row func([]string)) error {
		row(v.Headers)
		for _, r := range v.Rows {
			row(r)
		}
		return nil
	})
}

// WriteCSV writes headers and rows as CSV on stdout (csvsafe: quoting,
// formulas neutralised).
func (p *Printer) WriteCSV(headers []string, rows [][]string) error {
	c := csvsafe.NewWriter(p.Out())
	_ = c.Row(headers...) // a write error is kept by the writer and reported by Flush
	for _, r := range rows {
		_ = c.Row(r...)
	}
	return c.Flush()
}

// Event prints one event of a stream that a person watches (a file's
// status changing): a JSON line with --json or --jsonl, else the text line.
func (p *Printer) Event(v any, text string) error {
	if f := p.format(); f == JSON || f == JSONL {
		return WriteJSONLine(p.Out(), v)
	}
	_, err := io.WriteString(p.Out(), text+"\n")
	return err
}
