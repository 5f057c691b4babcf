// Package printer is the command line's one way out: it owns stdout and
// stderr (buffering, redaction, checked writes), the terminal checks, the
// progress line and the choice of format (an aligned table, --json,
// --jsonl, --csv, --jq, --template). A command hands it a stream of items
// (List), or one value or the one result of its work (Show: a Value, a
// Result), once, with what each format needs, and never asks which format
// was chosen; tests build one over buffers.
//
// It is gh's iostreams and its output layer in one place: the streams and
// the formats meet at every write (a --jq shaper sits between the command
// and stdout, a progress line must not tear a table), so they share a room.
package printer

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
)

// Exit statuses, the same for every command.
const (
	ExitOK      = 0 // success
	ExitError   = 1 // the command failed
	ExitUsage   = 2 // the command line was wrong
	ExitPartial = 3 // the call succeeded but some items failed (e.g. not_found IDs)
	ExitAuth    = 4 // the token was refused for good (audit follow past --auth-grace), as gh uses 4
)

// outBuffer is stdout's buffer: large listings write row by row, and a
// page is pushed through at its end (Flush).
const outBuffer = 64 << 10

// Printer is one invocation's streams and format.
type Printer struct {
	in             io.Reader
	rawOut, rawErr io.Writer // the real streams: terminal checks
	io             *streams  // rawOut and rawErr, their writes checked and counted

	// secret is the token to redact, told by whoever resolves it
	// (Redact): stdout and stderr are redacted from the first byte, with
	// or without a client.
	secret api.Secret
	redOut *api.RedactingWriter
	redErr *api.RedactingWriter
	out    *bufio.Writer
	err    io.Writer

	opt      options
	shape    *shaper // --jq or --template; nil: JSON as sent
	jqHold   jqHoldFlag
	fields   []string // --json FIELDS; nil: the objects whole
	cmd      string   // the running command's name, for messages
	progress *Progress
	rules    rules // --filter, --sort
}

// New is a printer over a process's (or a test's) streams.
func New(in io.Reader, out, errw io.Writer) *Printer {
	if in == nil {
		in = strings.NewReader("")
	}
	if out == nil {
		out = io.Discard
	}
	if errw == nil {
		errw = io.Discard
	}
	p := &Printer{in: in, rawOut: out, rawErr: errw, io: newStreams(out, errw)}
	p.redErr = p.secret.RedactingWriter(p.io.err)
	p.err = stderr{p}
	return p
}

// stderr is Err: redacted, and written after what stdout holds, so that
// whatever goes to stderr (a prompt, a progress line, an error) comes after
// what was already printed to stdout, as without the buffer.
type stderr struct{ p *Printer }

func (e stderr) Write(b []byte) (int, error) {
	if e.p.out != nil {
		_ = e.p.out.Flush() // an error is kept by the stream and said by Finish
	}
	return e.p.redErr.Write(b)
}

// Unwrap is the real stderr (terminal checks look through).
func (e stderr) Unwrap() io.Writer { return e.p.rawErr }

// Start begins the command named cmd (its path below the program's name):
// messages name it, and --jq or --template go between it and stdout.
func (p *Printer) Start(ctx context.Context, cmd string) {
	p.cmd = cmd
	if p.out != nil {
		return // a command run inside another (view NAME) has its own printer
	}
	base := io.Writer(p.io.out)
	if p.fields != nil { // --json FIELDS: a step of the shaper, alone or before --jq or --template
		if p.shape == nil {
			p.shape = &shaper{}
		}
		p.shape.fields = p.fields
	}
	if p.shape != nil {
		p.shape.attach(ctx, p.io.out, p.secret.RedactingWriter(p.io.out), p.format() == JSONL)
		base = p.shape
	}
	p.redOut = p.secret.RedactingWriter(base)
	p.io.given, p.io.shaped = &given{w: p.redOut, out: p.io.out}, p.shape != nil
	p.out = bufio.NewWriterSize(p.io.given, outBuffer)
	p.io.buf = p.out
}

// Command is the running command's name ("recycle-bin", "audit sync").
func (p *Printer) Command() string { return p.cmd }

// Redact makes tok the token removed from everything written from now on
// (the factory tells it when it resolves the token).
func (p *Printer) Redact(tok string) { p.secret.Set(tok) }

// Out is stdout: buffered, redacted, its first error kept.
func (p *Printer) Out() io.Writer {
	if p.out == nil {
		p.Start(context.Background(), p.cmd)
	}
	return p.out
}

// Err is stderr: redacted, and written after what stdout holds.
func (p *Printer) Err() io.Writer { return p.err }

// Library writes a library's log line to stderr, redacted as stderr is:
// safe from any goroutine (a transport logs from its own), where Err, which
// first pushes out what stdout holds, is the command's alone.
func (p *Printer) Library(line string) { _, _ = io.WriteString(p.redErr, "vaultdeck: "+line+"\n") }

// In is stdin.
func (p *Printer) In() io.Reader { return p.in }

// Flush pushes what stdout holds through to the stream (a listing does at
// the end of each page).
func (p *Printer) Flush() error {
	if p.out == nil {
		return nil
	}
	if err := p.out.Flush(); err != nil {
		return err
	}
	if p.io.out.err != nil { // failed under the buffer (a redaction's held tail)
		return p.io.out.err
	}
	return nil
}

// Finish empties the buffers once the command is done and settles its exit
// status: a stream that lost what it was given turns success into an
// error, and a lost stdout is said in one line with what reached it.
func (p *Printer) Finish(code int) int {
	if p.out != nil {
		_ = errors.Join(p.out.Flush(), p.redOut.Flush()) // a failure is the stream's, kept there
	}
	code = unusedRules(p, code)
	code = p.shape.finish(code, func(msg string) { p.Note("%s", msg) }) // after stdout's buffers reached it, before stderr's last flush
	if p.io.out.err != nil {
		sayLost(p)
		code = max(code, ExitError)
	}
	_ = p.redErr.Flush()
	if p.io.err.err != nil {
		code = max(code, ExitError)
	}
	return code
}
