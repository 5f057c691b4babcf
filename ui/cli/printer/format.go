package printer

import (
	"fmt"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/spf13/pflag"

	"github.com/vaultdeck/vaultdeck/api"
)

// Format is the output format the command line chose.
type Format int

const (
	Table Format = iota // aligned columns for people (the default)
	JSON                // --json (also --jq and --template, which shape it)
	JSONL               // --jsonl
	CSV                 // --csv
)

// options are the format flags as parsed: json is --json, --jq or
// --template (which shape JSON), and makes a command's Result JSON.
type options struct {
	json, jsonl, csv bool
	excel            bool // --excel: the CSV in Excel's dialect (implies --csv)
}

// RegisterFlags defines --json, --jsonl, --csv, --jq and --template on fs;
// --jq and --template are compiled while the flags are parsed, so a bad
// one is a usage error before any request. now is the templates' clock
// (timeago).
func (p *Printer) RegisterFlags(fs *pflag.FlagSet, now func() time.Time) {
	fs.Var(&jsonFlag{p: p}, "json", "print the API's own JSON objects (listings: an array, one item a line); with `FIELDS` (--json name,id, as gh's) only those fields of each")
	fs.Lookup("json").NoOptDefVal = jsonWhole
	fs.BoolVar(&p.opt.jsonl, "jsonl", false, "listings as JSON Lines: one item a line, nothing around them")
	fs.BoolVar(&p.opt.csv, "csv", false, "listings as CSV: a header row, then a record a row")
	fs.Var(excelFlag{p}, "excel", "the CSV in the dialect Excel opens as it is: a UTF-8 byte order mark first, lines ending CRLF (implies --csv)")
	fs.Lookup("excel").NoOptDefVal = "true"
	fs.Var(&jqFlag{p: p}, "jq", "filter the JSON with a jq `EXPRESSION`, as gh's --jq: it sees the whole output (a listing is an array); strings print raw, anything else as compact JSON, one a line (e.g. --jq '.[] | .name'; implies --json; one that begins .[] or map(…) streams)")
	p.jqHold.p = p
	fs.Var(&p.jqHold, "jq-hold", "the most of a listing's JSON `SIZE` --jq holds when its expression needs the listing whole (sort_by, group_by, .[0]), and that --sort holds to order it; default 64MiB)")
	fs.StringVar(&p.rules.filter, "filter", "", filterHelp)
	fs.StringVar(&p.rules.sort, "sort", "", sortHelp)
	fs.Var(&templateFlag{p: p, now: now}, "template", "print the JSON through a Go `TEMPLATE` (text/template with gh's helpers join, pluck, tablerow, tablerender, timeago, timefmt, truncate); a listing is `.` to range over once, e.g. --template '{{range .}}{{.vault_project.name}}{{\"\\n\"}}{{end}}'; with --jsonl the template runs once per item")
}

// excelFlag is --excel: --csv in Excel's dialect.
type excelFlag struct{ p *Printer }

func (f excelFlag) String() string { return "" }
func (f excelFlag) Type() string   { return "bool" }
func (f excelFlag) Set(s string) error {
	on := s == "true"
	if !on && s != "false" {
		return fmt.Errorf("--excel takes no value")
	}
	f.p.opt.excel, f.p.opt.csv = on, on || f.p.opt.csv
	return nil
}

func (o options) chosen() Format {
	switch {
	case o.jsonl:
		return JSONL
	case o.json:
		return JSON
	case o.csv:
		return CSV
	}
	return Table
}

// Accept refuses, with msg as a usage error (exit 2), a format the command
// does not print: ok is false when it must stop with code.
func (p *Printer) Accept(msg string, formats ...Format) (code int, ok bool) {
	for _, f := range formats {
		if f == p.format() {
			return ExitOK, true
		}
	}
	return p.Usage("%s", msg), false
}

// format is the format chosen.
func (p *Printer) format() Format { return p.opt.chosen() }

// Is reports whether f is the format chosen: for a command whose flags
// depend on it (--section goes with --csv), never to choose how to print.
func (p *Printer) Is(f Format) bool { return p.format() == f }

// SetFormat chooses the format (a command that always prints one, such as
// person --offboarding's CSV, and tests).
func (p *Printer) SetFormat(f Format) {
	p.opt = options{json: f == JSON, jsonl: f == JSONL, csv: f == CSV}
	p.fields = nil
}

// Cells formats the cells of a table as the chosen format wants them:
// for people sizes humanised and times short, in UTC; in a CSV, which a
// program reads next week, exact numbers and RFC 3339.
type Cells struct{ csv bool }

// Cells is the chosen format's cell formatter.
func (p *Printer) Cells() Cells { return Cells{csv: p.format() == CSV} }

// timeLayout is the one time format of human output: UTC, so that output
// does not depend on the machine's zone.
const timeLayout = "2006-01-02 15:04"

// Size is a byte count; one the interface cannot mean is "invalid".
func (c Cells) Size(n api.Int) string {
	if c.csv || !n.Valid() {
		return n.String()
	}
	return humanize.Bytes(uint64(n))
}

// Time is a time to the minute ("" for none).
func (c Cells) Time(t time.Time) string {
	switch {
	case t.IsZero():
		return ""
	case c.csv:
		return t.UTC().Format(time.RFC3339)
	}
	return t.UTC().Format(timeLayout)
}

// APITime is Time of a service time; one that is none (out of range, or in
// no form known) is "invalid" (--json keeps its text).
func (c Cells) APITime(t api.Time) string {
	if t.Invalid() {
		return "invalid"
	}
	return c.Time(t.Time)
}

// APITimeOf is APITime of an optional time.
func (c Cells) APITimeOf(t *api.Time) string {
	if t == nil {
		return ""
	}
	return c.APITime(*t)
}

// Seconds is a time to the second ("-" for none): audit entries a second
// apart differ.
func (c Cells) Seconds(t time.Time) string {
	if c.csv && !t.IsZero() {
		return t.UTC().Format(time.RFC3339)
	}
	return UTCSeconds(t)
}

// UTCSeconds is t to the second in UTC, "-" for none.
func UTCSeconds(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// When is a time that a sentence names too ("2026-01-02 15:04 UTC").
func (c Cells) When(t time.Time) string {
	if c.csv {
		return c.Time(t)
	}
	return When(t)
}

// When is t to the minute, saying its zone: UTC.
func When(t time.Time) string { return t.UTC().Format(timeLayout) + " UTC" }

// Unknown is a cell of a value not known yet: word for people, empty in a
// CSV (a column of times holds times).
func (c Cells) Unknown(word string) string {
	if c.csv {
		return ""
	}
	return word
}
