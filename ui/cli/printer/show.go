package printer

import (
	"bytes"
	"fmt"
	"io"
	"reflect"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe"
)

// Value is one thing a command shows that it holds whole (an object of
// the service's, or a short list of the command's own values), as every
// format shows it: the command says it all, and the printer picks. The
// outcome of a command's work (a run's report, a receipt) is a Result.
type Value struct {
	// JSON is encoded for --json (indented) and --jsonl (one line; a list,
	// a line per element). A value with neither JSON nor Raw has no JSON
	// form: its table or text is printed whatever the format; one with no
	// table or text is its JSON whatever the format, indented but under
	// --jsonl.
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
	// The lines for the person reading a table or a CSV (JSON has none):
	// Aside on stderr before it (which snapshot answered), Note on stderr
	// after it (what to run next), Foot under a table only (a count line),
	// Summary under a table, or on stderr beside a CSV (the CSV on stdout
	// is the records alone).
	Aside, Note, Foot, Summary string
}

// Shown is what Show prints: a Value, or a command's Result.
type Shown interface{ show(p *Printer) error }

// Show prints v as the chosen format wants it.
func (p *Printer) Show(v Shown) error { return v.show(p) }

func (v Value) show(p *Printer) error {
	v, err := ruledValue(p, v) // --filter and --sort
	if err != nil {
		return err
	}
	w := p.Out()
	if f := p.format(); (f == JSON || f == JSONL || !v.human()) && (v.JSON != nil || v.Raw != nil) {
		switch {
		case v.Raw != nil:
			_, err := w.Write(append(safeRaw(nil, bytes.TrimSpace(v.Raw)), '\n'))
			return err
		case f != JSONL:
			return WriteJSON(w, v.JSON)
		}
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
	if err := p.human(v); err != nil {
		return err
	}
	if v.Note != "" {
		_, err := fmt.Fprintln(p.Err(), v.Note)
		return err
	}
	return nil
}

// human reports whether v has a form for people: a table or a text.
func (v Value) human() bool {
	return v.Headers != nil || v.Rows != nil || v.Text != nil || v.Empty != ""
}

// human prints v's table, CSV or text, with the lines under it.
func (p *Printer) human(v Value) error {
	w, csv := p.Out(), p.format() == CSV
	var err error
	switch {
	case csv && v.Headers != nil:
		err = p.WriteCSV(v.Headers, v.Rows)
	case v.Text != nil:
		err = v.Text(w)
	case len(v.Rows) == 0 && v.Empty != "":
		_, err = io.WriteString(w, v.Empty+"\n")
	default:
		err = Aligned(w, func(row func([]string)) error {
			row(v.Headers)
			for _, r := range v.Rows {
				row(r)
			}
			return nil
		})
	}
	if err != nil {
		return err
	}
	if v.Foot != "" && !csv {
		if _, err := fmt.Fprintln(w, v.Foot); err != nil {
			return err
		}
	}
	if v.Summary != "" {
		if csv {
			w = p.Err()
		}
		_, err = fmt.Fprintln(w, v.Summary)
	}
	return err
}

// csvWriter is the one CSV writer on p's stdout, in Excel's dialect with
// --excel (a function, not a method: the Printer has enough).
func csvWriter(p *Printer) *csvsafe.Writer { return csvsafe.New(p.Out(), p.opt.excel) }

// WriteCSV writes headers and rows as CSV on stdout (csvsafe: quoting,
// formulas neutralised).
func (p *Printer) WriteCSV(headers []string, rows [][]string) error {
	c := csvWriter(p)
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
