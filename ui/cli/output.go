package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// timeLayout is the one time format of human output: UTC, so that output
// does not depend on the machine's zone.
const timeLayout = "2006-01-02 15:04"

// table prints aligned columns; every cell passes through sanitize.Line,
// because server strings may carry terminal escape sequences. With --csv
// the same rows are CSV records instead (widgets.CSV: quoting, formula
// neutralising), so every listing gets CSV from the one writer.
type table struct {
	tw *tabwriter.Writer
	cw *widgets.CSV
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
	t := &table{cw: widgets.NewCSV(r.env.Stdout)}
	t.row(headers...)
	return t
}

// more continues the table on the same writer without its header (a paged
// listing prints each page as it arrives).
func (t *table) more() *table {
	if t.cw != nil {
		return t
	}
	return &table{tw: t.tw}
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

// size is a byte count for a table: humanized for people, the exact
// number in a CSV, where a spreadsheet sums and sorts it.
func (r *runner) size(n api.Int) string {
	if r.g.CSV {
		return strconv.FormatInt(int64(n), 10)
	}
	return fmtSize(n)
}

// at is a time cell of a listing: with --csv RFC 3339 in UTC with its
// seconds (a file read next week, by a program, parses it), else the
// shorter human form in UTC ("" for none).
func (r *runner) at(t time.Time) string {
	switch {
	case t.IsZero():
		return ""
	case r.g.CSV:
		return t.UTC().Format(time.RFC3339)
	}
	return t.UTC().Format(timeLayout)
}

// atAPI is at of a service time; one it could not parse is written as
// it was sent.
func (r *runner) atAPI(t api.Time) string {
	if t.IsZero() {
		return t.Raw // unparsed server text, or "" -> "-"
	}
	return r.at(t.Time)
}

func (r *runner) atPtr(t *api.Time) string {
	if t == nil {
		return ""
	}
	return r.atAPI(*t)
}

func fmtSize(n api.Int) string {
	if n < 0 {
		return fmt.Sprint(int64(n))
	}
	return humanize.Bytes(uint64(n))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// writeJSON prints v as indented JSON. encoding/json escapes C0 controls
// and invalid UTF-8 in strings, but neither C1 (U+0080..U+009F, escape
// introducers on some terminals) nor anything inside a json.RawMessage (the
// server's own bytes); jsonSafe escapes those too, keeping the indentation.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(jsonSafe(nil, buf.Bytes(), false))
	return err
}

// guard routes stdout and stderr through the client's redacting writer (the
// last line of defence: whatever the server echoed, the token never reaches
// the terminal or a pipe) and buffers stdout, which large listings write
// row by row.
func (r *runner) guard(c *api.Client) {
	if len(r.flush) > 0 {
		return // already guarded (a command that builds two clients)
	}
	r.rawOut, r.rawErr = r.env.Stdout, r.env.Stderr
	if s, ok := r.env.Stdout.(*shaper); ok {
		s.redactWith(c) // what --jq and --template make of the data is redacted too
	}
	errw := c.RedactingWriter(r.env.Stderr)
	outw := c.RedactingWriter(r.env.Stdout)
	buf := bufio.NewWriterSize(outw, 64<<10)
	r.env.Stdout = buf
	// Whatever goes to stderr (a prompt, a progress line, an error) comes
	// after what was already printed to stdout, as without the buffer.
	r.env.Stderr = writerFunc(func(p []byte) (int, error) {
		_ = buf.Flush()
		return errw.Write(p)
	})
	r.flush = []func() error{buf.Flush, outw.Flush, errw.Flush}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// finish flushes the guarded writers once a command is done; a failed
// write to stdout (a closed pipe) turns success into an error.
func (r *runner) finish(code int) int {
	outs, errs := r.flush, []func() error(nil)
	if len(outs) == 3 {
		outs, errs = outs[:2], outs[2:]
	}
	for _, f := range outs {
		if err := f(); err != nil && code == ExitOK {
			code = ExitError
		}
	}
	code = r.closeShape(code) // after stdout's buffers reached it, before stderr's last flush
	for _, f := range errs {
		_ = f()
	}
	r.flush = nil
	return code
}
