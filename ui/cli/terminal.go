package cli

import (
	"errors"
	"io"
	"os"

	"golang.org/x/term"
)

// errNoTerminal is what the console says when it has no terminal to draw
// on: Bubble Tea would otherwise switch the screen, fail on its input
// (an epoll error for /dev/null) and leave the terminal in the alternate
// screen with the cursor hidden.
var errNoTerminal = errors.New("the console needs a terminal; use the headless commands or --json")

// isTTY reports whether s is a terminal device. Streams that are not
// files (tests) are not terminals.
func isTTY(s any) bool {
	if u, ok := s.(interface{ Unwrap() io.Writer }); ok { // the --jq/--template shaper
		return isTTY(u.Unwrap())
	}
	f, ok := s.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// needTerminal checks, before anything is drawn or started, that the
// console can read keys from stdin and draw on stdout.
func needTerminal(stdin io.Reader, stdout io.Writer) error {
	if !isTTY(stdin) || !isTTY(stdout) {
		return errNoTerminal
	}
	return nil
}
