package printer

import (
	"fmt"
	"io"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe"
)

// Result is the outcome of a command's work, when it is one thing and not a
// listing: a matter run's plan or report, a receipt, an upload's report.
// The command describes it once in every form and Show picks one. Each form
// is a function called only when it is the one shown: a report of a million
// outcomes streams, and a form that reads the store or the audit mirror
// costs nothing in the others.
//
// It is JSON when --json, --jq or --template asked for it, whatever --jsonl
// says (one line under --jsonl, as --jq reads it there). --jsonl alone is a
// listing's format: a result shows its text under it, as under the table
// (a Value, which is an object of the service's or a short list, differs:
// --jsonl prints it as JSON Lines). Under --csv it is its Table as CSV, or
// its text when it has no Table. A result whose only form is JSON is that
// JSON in every format.
type Result struct {
	// JSON is the value for a program, encoded as --json does; WriteJSON,
	// instead, writes a document as it is read (a run's outcomes, never
	// encoded at once), as it is, --jsonl or not.
	JSON      func() (any, error)
	WriteJSON func(w io.Writer) error
	// Text is the form for people. Table walks the result's rows, the
	// header row first, handing each to row and stopping at its error:
	// the CSV, and, aligned (Aligned), the text when there is no Text.
	Text  func(w io.Writer) error
	Table func(row func(cells []string) error) error
	// Export, when JSON or CSV, is the form a command's own flag named
	// (matters receipt --export csv|json): it wins over the format flags.
	Export Format
	// The lines for the person reading the text or the CSV, which the
	// JSON carries in its own fields: Summary under the text, or on stderr
	// beside the CSV (the CSV on stdout is the records alone); Notes on
	// stderr after either, each said as Note says it.
	Summary string
	Notes   []string
}

func (r Result) show(p *Printer) error {
	form := r.form(p)
	if p.rules.set() && form != CSV {
		return usageError{fmt.Errorf("--filter and --sort apply to a result's rows as --csv writes them: add --csv")}
	}
	w := p.Out()
	var err error
	switch {
	case form == JSON:
		return r.writeJSON(p, w)
	case form == CSV:
		c := csvsafe.New(w, p.opt.excel)
		err = ruledTable(p, r.Table, func(cells []string) error { return c.Row(cells...) })
		if ferr := c.Flush(); err == nil {
			err = ferr // the records before an error still go out, as a listing's do
		}
	case r.Text != nil:
		err = r.Text(w)
	case r.Table != nil:
		err = Aligned(w, func(row func([]string)) error {
			return r.Table(func(cells []string) error { row(cells); return nil })
		})
	}
	if err != nil {
		return err
	}
	if r.Summary != "" {
		if form == CSV {
			w = p.Err()
		}
		if _, err := fmt.Fprintln(w, r.Summary); err != nil {
			return err
		}
	}
	for _, n := range r.Notes {
		p.Note("%s", n)
	}
	return nil
}

// form is the form of r that the command line asked for (Table: the text).
func (r Result) form(p *Printer) Format {
	want := r.Export
	if want != JSON && want != CSV {
		switch {
		case p.opt.json: // --json, --jq or --template
			want = JSON
		case p.format() == CSV:
			want = CSV
		}
	}
	json := r.JSON != nil || r.WriteJSON != nil
	switch {
	case want == JSON && json:
		return JSON
	case want == CSV && r.Table != nil:
		return CSV
	case r.Text == nil && r.Table == nil && json:
		return JSON
	}
	return Table
}

func (r Result) writeJSON(p *Printer, w io.Writer) error {
	if r.WriteJSON != nil {
		return r.WriteJSON(w)
	}
	v, err := r.JSON()
	if err != nil {
		return err
	}
	if p.format() == JSONL {
		return WriteJSONLine(w, v)
	}
	return WriteJSON(w, v)
}

// Human is stderr for the person who reads a command's Result: what is
// said before it is shown (an upload's progress line, the files its plan
// skipped), which its text leaves to stderr and its JSON carries. It is
// io.Discard when the result is JSON (--json, --jq, --template): a program
// reads that, and the JSON is the whole story. A terminal check looks
// through it (IsTerminal), so a line redrawn for a person watching is drawn
// only when there is one.
func (p *Printer) Human() io.Writer {
	if p.opt.json {
		return io.Discard
	}
	return p.err
}
