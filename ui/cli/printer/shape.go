package printer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// --jq EXPR and --template TPL shape a command's JSON output, with gh's
// meaning. They are one layer under every command: the shaper replaces
// stdout, reads the JSON the command writes (listings as an array of
// items, or one item a line with --jsonl; single objects whole) and prints
// what the expression or template makes of it. A command needs nothing to
// get them, and a new command (saved views included) has them the day it
// prints JSON.
//
// --jq sees the whole output, as gh's does (a listing is one array), and
// runs on each item as it streams when it begins by iterating the listing
// (shape_jq.go: planJQ); otherwise the listing is held, up to --jq-hold.
// With --jsonl the unit is the item. --template sees a listing as `.`, an
// ordered sequence read once as the items arrive (`{{range .}}` streams;
// len and index are not available on it), or with --jsonl runs once per
// item; a single object is `.` whole.
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

// templateFlag is --template: parsed in Set (unknown helpers included).
type templateFlag struct {
	p   *Printer
	now func() time.Time
	src string
}

func (f *templateFlag) String() string { return f.src }
func (f *templateFlag) Type() string   { return "string" }
func (f *templateFlag) Set(s string) error {
	tp := &tmplProgram{now: f.now}
	if err := tp.parse(s); err != nil {
		return err
	}
	f.src = s
	f.p.shape = &shaper{tmpl: tp}
	f.p.opt.json = true
	return nil
}

// shaper is the stdout of a command run with --jq or --template.
type shaper struct {
	jq   *jqProgram
	tmpl *tmplProgram

	ctx      context.Context
	base     io.Writer     // the real stdout (terminal checks look through)
	out      *bufio.Writer // what the shaper prints, flushed after each Write
	redact   *api.RedactingWriter
	split    splitter
	perItem  bool // --jsonl: a template runs on each item
	n        int  // items (or documents) shaped so far, for error messages
	listing  *tmplListing
	jql      *jqListing // a listing --jq reads (nil between listings)
	fields   []string   // --json FIELDS
	known    []string   // the fields the listing's records have (printed null when an item lacks one)
	cut      []byte     // an item cut to fields
	plainN   int        // --json FIELDS alone: items printed in the current array
	err      error
	reported bool
}

// shapeError is a --jq or --template failure at run time: exit 1, its
// message alone (no "items were written" note: the count is the shaper's).
type shapeError struct{ msg string }

func (e *shapeError) Error() string { return e.msg }

// attach puts the shaper between the command and base (stdout): what it
// prints goes through redact, a redacting writer on base.
func (s *shaper) attach(ctx context.Context, base io.Writer, redact *api.RedactingWriter, perItem bool) {
	s.ctx, s.base, s.redact = ctx, base, redact
	s.out = bufio.NewWriterSize(redact, 32<<10)
	s.perItem = perItem
	s.split.emit = s.value
	s.split.array = s.array
}

func (s *shaper) Unwrap() io.Writer { return s.base }

// Write reads the command's JSON; a failure is sticky, so the command stops
// at its next write and its requests stop with it.
func (s *shaper) Write(p []byte) (int, error) {
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
	var lost *StreamError
	if errors.As(err, &lost) {
		s.err = err // stdout's failure, not the shaper's: the printer says it
		return
	}
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
	ferr := errors.Join(s.out.Flush(), s.redact.Flush())
	if s.err != nil {
		return s.err
	}
	return ferr
}

// value shapes one item (inArray) or one whole document.
func (s *shaper) value(raw []byte, inArray bool) error {
	idx := s.n
	s.n++
	where := ""
	if inArray || s.n > 1 || s.perItem {
		where = fmt.Sprintf(" on item %d (counting from 0)", idx)
	}
	if s.fields != nil {
		cut, err := project(s.cut[:0], raw, s.fields, s.known)
		if err != nil {
			msg := err.Error()
			if where != "" {
				msg += " (" + strings.TrimPrefix(where, " ") + ")"
			}
			return &shapeError{msg: msg}
		}
		s.cut, raw = cut, cut
		if s.jq == nil && s.tmpl == nil {
			return s.plain(raw, inArray && !s.perItem)
		}
	}
	v, err := decodeShapeValue(raw)
	if err != nil {
		return err
	}
	switch {
	case s.jql != nil:
		if err := s.jqItem(s.jql, v, len(raw)); err != nil {
			return shapeFailure("--jq failed"+where+": ", jqMessage, err)
		}
	case s.jq != nil:
		if err := s.runJQ(s.jq.whole, v, s.printResult); err != nil {
			return shapeFailure("--jq failed"+where+": ", jqMessage, err)
		}
	case s.listing != nil:
		if err := s.listing.push(v); err != nil {
			return shapeFailure("--template failed"+where+": ", tmplMessage, err)
		}
	default:
		if err := s.tmpl.exec(s.out, v); err != nil {
			return shapeFailure("--template failed"+where+": ", tmplMessage, err)
		}
	}
	return nil
}

// shapeFailure is a --jq or --template failure, unless what failed was
// stdout refusing the shaped output: the printer's to say, with its count.
func shapeFailure(prefix string, msg func(error) string, err error) error {
	var lost *StreamError
	if errors.As(err, &lost) {
		return lost
	}
	return &shapeError{msg: prefix + msg(err)}
}

// array starts or ends a top-level array: a listing, which a template sees
// as one sequence (unless --jsonl asked for one run per item).
func (s *shaper) array(open bool) error {
	if s.jq == nil && s.tmpl == nil {
		return s.plainArray(open)
	}
	if s.jq != nil && !s.perItem {
		return s.jqArray(open)
	}
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
		return shapeFailure("--template failed: ", tmplMessage, err)
	}
	return nil
}

// plain prints an item cut to --json FIELDS as --json prints items: in a
// listing's array one a line, else one document a line.
func (s *shaper) plain(raw []byte, inArray bool) error {
	if inArray {
		sep := ",\n"
		if s.plainN == 0 {
			sep = "[\n"
		}
		s.plainN++
		s.out.WriteString(sep)
	}
	s.out.Write(jsonSafe(nil, raw, true))
	if !inArray {
		return s.out.WriteByte('\n')
	}
	return nil
}

// plainArray opens or closes a listing's array under --json FIELDS alone;
// like --json, the opening waits for the first item and a listing that
// failed stays unclosed.
func (s *shaper) plainArray(open bool) error {
	if s.perItem {
		return nil
	}
	if open {
		s.plainN = 0
		return nil
	}
	closing := "\n]\n"
	if s.plainN == 0 {
		closing = "[]\n"
	}
	_, err := s.out.WriteString(closing)
	return err
}

// jqArray starts or ends a listing for --jq; one never ended (the command
// failed) prints nothing of what it was to end with (a count, a held
// listing's answer).
func (s *shaper) jqArray(open bool) error {
	if open {
		s.jql = s.jq.startListing()
		return nil
	}
	l := s.jql
	s.jql = nil
	if l == nil {
		return nil
	}
	if err := s.jqEnd(l); err != nil {
		return shapeFailure("--jq failed: ", s.jq.listingHint, err)
	}
	return nil
}

// failed reports err's shaping failure once (Fail and Finish both look);
// a nil shaper has none.
func (s *shaper) failed(err error) (string, bool) {
	var se *shapeError
	if s == nil || !errors.As(err, &se) {
		return "", false
	}
	if s.reported {
		return "", true
	}
	s.reported = true
	return se.msg, true
}

// finish ends the shaper after the command; a failure there (or one the
// command did not report) is exit 1 with its message, said by note.
func (s *shaper) finish(code int, note func(string)) int {
	if s == nil || s.base == nil {
		return code
	}
	err := s.close()
	if err == nil {
		return code
	}
	if msg, ok := s.failed(err); ok {
		if msg != "" {
			note(msg)
		}
		return ExitError
	}
	if code == ExitOK {
		return ExitError // stdout could not be written (a closed pipe)
	}
	return code
}
