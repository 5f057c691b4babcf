package printer

import (
	"errors"
	"fmt"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// The command's messages on stderr, one line each, named for the command:
// "vaultdeck recycle-bin: ...".

// Fail prints err and returns the error status. A --jq or --template
// failure is said once, its message alone.
func (p *Printer) Fail(err error) int {
	_ = p.Flush() // what stdout holds goes first, and whether it could be written is known
	if p.io.lost(err) {
		sayLost(p) // now, so that what the command says next (where its outcome is kept) follows it
		return ExitError
	}
	var usage usageError
	if errors.As(err, &usage) {
		return p.UsageError(usage.error)
	}
	var part Partial
	if p.io.out.err != nil && errors.As(err, &part) {
		err = part.Err // the items that reached stdout are Finish's to count
	}
	if msg, ok := p.shape.failed(err); ok {
		if msg != "" {
			p.Note("%s", msg)
		}
		return ExitError
	}
	p.Note("%s", err.Error())
	return ExitError
}

// usageError is an error of the command line found only once the command
// runs (an unknown --json field, checked against the listing's records):
// exit 2, as a usage error found while parsing.
type usageError struct{ error }

// Done is ExitOK, or Fail(err).
func (p *Printer) Done(err error) int {
	if err != nil {
		return p.Fail(err)
	}
	return ExitOK
}

// Note prints one line on stderr: "vaultdeck CMD: " and the text, made
// safe for a terminal.
func (p *Printer) Note(format string, a ...any) {
	prefix := "vaultdeck"
	if p.cmd != "" {
		prefix += " " + p.cmd
	}
	fmt.Fprintf(p.err, "%s: %s\n", prefix, sanitize.Line(fmt.Sprintf(format, a...)))
}

// Usage reports a usage error in one line naming the problem and the
// command's help (exit 2).
func (p *Printer) Usage(format string, a ...any) int {
	return p.UsageError(fmt.Errorf(format, a...))
}

// UsageError is Usage for an error already made.
func (p *Printer) UsageError(err error) int {
	// "vaultdeck CMD: ... (see `vaultdeck help CMD`)"; the console's is the
	// program's own
	prefix, help := "vaultdeck", "vaultdeck help"
	if p.cmd != "" && p.cmd != "console" {
		prefix, help = prefix+" "+p.cmd, help+" "+p.cmd
	}
	fmt.Fprintf(p.err, "%s: %s (see `%s`)\n", prefix, sanitize.Line(err.Error()), help)
	return ExitUsage
}

// Partial says, beside an error that ended a listing, how much of it is
// already on stdout: a script that sees exit 1 knows what it has.
type Partial struct {
	Err error
	N   int
}

func (e Partial) Error() string {
	if e.N == 1 {
		return e.Err.Error() + " (1 item was written before this error)"
	}
	return fmt.Sprintf("%s (%s written before this error)", e.Err, plural.Count(e.N, "item was", "items were"))
}

func (e Partial) Unwrap() error { return e.Err }

// AfterItems wraps err with the count of items written, when there are any.
func AfterItems(err error, n int) error {
	var already Partial
	if err == nil || n == 0 || errors.As(err, &already) {
		return err
	}
	return Partial{err, n}
}
