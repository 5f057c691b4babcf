package printer

import (
	"io"
	"os"

	"golang.org/x/term"
)

// IsTerminal reports whether s is a terminal device, looking through the
// writers wrapped around it (Unwrap). Streams that are not files (tests)
// are not terminals, unless they say so (IsTerminal() bool: a test's
// stand-in for a person at a terminal).
func IsTerminal(s any) bool {
	if t, ok := s.(interface{ IsTerminal() bool }); ok {
		return t.IsTerminal()
	}
	if u, ok := s.(interface{ Unwrap() io.Writer }); ok {
		return IsTerminal(u.Unwrap())
	}
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// StdoutIsTerminal reports whether stdout is a terminal.
func (p *Printer) StdoutIsTerminal() bool { return IsTerminal(p.rawOut) }

// StderrIsTerminal reports whether stderr is a terminal.
func (p *Printer) StderrIsTerminal() bool { return IsTerminal(p.rawErr) }

// StdinIsTerminal reports whether a person can answer a prompt on stdin.
func (p *Printer) StdinIsTerminal() bool { return IsTerminal(p.in) }
