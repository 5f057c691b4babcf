package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// --jq EXPR and --template TPL shape a command's JSON output, with gh's
// meaning. They are one layer under every command: the shaper replaces
// stdout, reads the JSON the command writes (listings as an array of
// items, or one item a line with --jsonl; single objects whole) and prints
// what the expression or template makes of it. A command needs nothing to
// get them, and a new command (saved views included) has them the day it
// prints JSON.
//
// The unit is the item: --jq runs on each item of a listing as it streams
// and on the whole of a single object; a top-level array is a listing.
// --template sees a listing as `.`, an ordered sequence read once as the
// items arrive (`{{range .}}` streams; len and index are not available on
// it), or with --jsonl runs once per item; a single object is `.` whole.
// Memory stays that of one item whatever the listing's length.
//
// Output rule: a string result (jq) and every piece of a template's text is
// printed raw, less terminal escape sequences and control characters other
// than line breaks and tabs, on a terminal or not (piped output is read on
// a terminal too, and no vault data needs them); any other result is compact
// JSON, one a line, with controls, DEL and C1 escaped as --json does. The
// shaper reads the command's output after the redacting writer (the token
// is never in its input, so no expression can re-encode it) and writes
// through one too (a value the server escaped as \u sequences is redacted
// once decoded). jq's $ENV and env are empty: VAULTDECK_TOKEN is not one
// expression away.

// maxShapeItem bounds one item (or single object) held for the shaper.
const maxShapeItem = 32 << 20

// shapeFlags registers --jq and --template beside --json; both are compiled
// while the flags are parsed, so a bad one is a usage error before any
// request.
func (r *runner) shapeFlags(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.Var(&jqFlag{r: r}, "jq", "shape the JSON with a jq `EXPRESSION`: run on each item of a listing (on the whole of a single object); strings print raw, anything else as compact JSON, one a line (e.g. --jq '.vault_project.name'; implies --json)")
	pf.Var(&templateFlag{r: r}, "template", "print the JSON through a Go `TEMPLATE` (text/template with gh's helpers join, pluck, tablerow, tablerender, timeago, timefmt, truncate); a listing is `.` to range over once, e.g. --template '{{range .}}{{.vault_project.name}}{{\"\\n\"}}{{end}}'; with --jsonl the template runs once per item")
	_ = root.RegisterFlagCompletionFunc("jq", noCompletion)
	_ = root.RegisterFlagCompletionFunc("template", noCompletion)
	root.MarkFlagsMutuallyExclusive("csv", "jq", "template")
}

func noCompletion(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// jqFlag is --jq: parsed and compiled in Set.
type jqFlag struct {
	r    *runner
	expr string
}

func (f *jqFlag) String() string { return f.expr }
func (f *jqFlag) Type() string   { return "string" }
func (f *jqFlag) Set(s string) error {
	q, err := gojq.Parse(s)
	if err != nil {
		return fmt.Errorf("not a jq expression: %s", jqMessage(err))
	}
	// No environment: $ENV and env would hand out VAULTDECK_TOKEN.
	code, err := gojq.Compile(q, gojq.WithEnvironLoader(func() []string { return nil }))
	if err != nil {
		return fmt.Errorf("not a jq expression: %s", jqMessage(err))
	}
	f.expr = s
	f.r.shape = &shaper{jq: code}
	f.r.g.JSON = true
	return nil
}

func jqMessage(err error) string { return sanitize.Line(err.Error()) }

// templateFlag is --template: parsed in Set (unknown helpers included).
type templateFlag struct {
	r   *runner
	src string
}

func (f *templateFlag) String() string { return f.src }
func (f *templateFlag) Type() string   { return "string" }
func (f *templateFlag) Set(s string) error {
	tp := &tmplProgram{now: f.r.now}
	if err := tp.parse(s); err != nil {
		return err
	}
	f.src = s
	f.r.shape = &shaper{tmpl: tp}
	f.r.g.JSON = true
	return nil
}

// shaper is the stdout of a command run with --jq or --template.
type shaper struct {
	jq   *gojq.Code
	tmpl *tmplProgram

	ctx      context.Context
	base     io.Writer     // the real stdout (terminal checks look through)
	out      *bufio.Writer // what the shaper prints, flushed after each Write
	redact   *api.RedactingWriter
	split    splitter
	perItem  bool // --jsonl: a template runs on each item
	n        int  // items (or documents) shaped so far, for error messages
	listing  *tmplListing
	err      error
	reported bool
	handedOn bool // an inner command's shaper does the work (attach)
}

// shapeError is a --jq or --template failure at run time: exit 1, its
// message alone (no "items were written" note: the count is the shaper's).
type shapeError struct{ msg string }

func (e *shapeError) Error() string { return e.msg }

// attach puts the shaper between the command and stdout.
func (s *shaper) attach(ctx context.Context, r *runner) {
	s.ctx, s.base = ctx, r.env.Stdout
	if outer, ok := s.base.(*shaper); ok {
		// A command run inside another (`view NAME` runs its saved
		// command) was handed the same --jq or --template: it shapes, the
		// outer one steps aside, so the output is shaped once.
		outer.handedOn = true
		s.base = outer.base
	}
	s.out = bufio.NewWriterSize(s.base, 32<<10)
	s.perItem = r.g.JSONL
	s.split.emit = s.value
	s.split.array = s.array
	r.env.Stdout = s
}

// redactWith sends what the shaper prints through the client's redacting
// writer (guard calls it once the client exists).
func (s *shaper) redactWith(c *api.Client) {
	if s.redact != nil {
		return
	}
	s.redact = c.RedactingWriter(s.base)
	s.out.Reset(s.redact)
}

func (s *shaper) Unwrap() io.Writer { return s.base }

// Write reads the command's JSON; a failure is sticky, so the command stops
// at its next write and its requests stop with it.
func (s *shaper) Write(p []byte) (int, error) {
	if s.handedOn {
		return s.base.Write(p)
	}
	if s.err != nil {
		return 0, s.err
	}
	err := s.split.feed(p)
	if ferr := s.out.Flush(); err == nil && ferr != nil {
		err = ferr
	}
	if err != nil {
		s.fail(err)
		return 0, s.err
	}
	return len(p), nil
}

func (s *shaper) fail(err error) {
	if s.err != nil {
		return
	}
	var se *shapeError
	if !errors.As(err, &se) {
		se = &shapeError{msg: err.Error()}
		if errors.Is(err, errNotJSON) {
			se.msg = "--jq and --template shape JSON, and this command's output is not JSON"
		}
	}
	s.err = se
}

// close ends the output: a listing's template finishes, tables are drawn,
// buffers are flushed.
func (s *shaper) close() error {
	if s.handedOn {
		return nil
	}
	if s.err == nil {
		if err := s.split.end(); err != nil {
			s.fail(err)
		} else if s.listing != nil { // an array never closed: end the template anyway
			s.fail(s.array(false))
		}
		if s.tmpl != nil && s.err == nil {
			if err := s.tmpl.render(s.out); err != nil {
				s.fail(err)
			}
		}
	}
	ferr := s.out.Flush()
	if s.redact != nil {
		ferr = errors.Join(ferr, s.redact.Flush())
	}
	if s.err != nil {
		return s.err
	}
	return ferr
}

// value shapes one item (inArray) or one whole document.
func (s *shaper) value(raw []byte, inArray bool) error {
	v, err := decodeShapeValue(raw)
	if err != nil {
		return err
	}
	idx := s.n
	s.n++
	where := ""
	if inArray || s.n > 1 || s.perItem {
		where = fmt.Sprintf(" on item %d (counting from 0)", idx)
	}
	switch {
	case s.jq != nil:
		if err := s.runJQ(v); err != nil {
			return &shapeError{msg: "--jq failed" + where + ": " + jqMessage(err)}
		}
	case s.listing != nil:
		if err := s.listing.push(v); err != nil {
			return &shapeError{msg: "--template failed" + where + ": " + tmplMessage(err)}
		}
	default:
		if err := s.tmpl.exec(s.out, v); err != nil {
			return &shapeError{msg: "--template failed" + where + ": " + tmplMessage(err)}
		}
	}
	return nil
}

// array starts or ends a top-level array: a listing, which a template sees
// as one sequence (unless --jsonl asked for one run per item).
func (s *shaper) array(open bool) error {
	if s.tmpl == nil || s.perItem {
		return nil
	}
	if open {
		s.listing = s.tmpl.startListing(s.out)
		return nil
	}
	l := s.listing
	s.listing = nil
	if l == nil {
		return nil
	}
	if err := l.end(); err != nil {
		return &shapeError{msg: "--template failed: " + tmplMessage(err)}
	}
	return nil
}

func (s *shaper) runJQ(v any) error {
	it := s.jq.RunWithContext(s.ctx, v)
	for {
		x, ok := it.Next()
		if !ok {
			return nil
		}
		if err, isErr := x.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil // `halt`: this item's output ends, quietly
			}
			return err
		}
		if str, isStr := x.(string); isStr {
			s.out.WriteString(sanitize.Output(str))
		} else {
			b, _ := gojq.Marshal(x)
			s.out.Write(jsonSafe(nil, b, true))
		}
		if err := s.out.WriteByte('\n'); err != nil {
			return err
		}
	}
}

// shapeFailed reports err's shaping failure once (r.fail and finish both
// look).
func (r *runner) shapeFailed(err error) (string, bool) {
	var se *shapeError
	if r.shape == nil || !errors.As(err, &se) {
		return "", false
	}
	if r.shape.reported {
		return "", true
	}
	r.shape.reported = true
	return se.msg, true
}

// closeShape ends the shaper after the command; a failure there (or one the
// command did not report) is exit 1 with its message.
func (r *runner) closeShape(code int) int {
	if r.shape == nil || r.shape.base == nil {
		return code
	}
	err := r.shape.close()
	if err == nil {
		return code
	}
	if msg, ok := r.shapeFailed(err); ok {
		if msg != "" {
			fmt.Fprintf(r.errOut(), "vaultdeck %s: %s\n", r.cmd, oneLine(msg))
		}
		return ExitError
	}
	if code == ExitOK {
		return ExitError // stdout could not be written (a closed pipe)
	}
	return code
}

// errOut is stderr, redacting when guarded.
func (r *runner) errOut() io.Writer { return r.env.Stderr }
