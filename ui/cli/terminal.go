package cli

import (
	"errors"
	"io"

	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// errNoTerminal is what the console says when it has no terminal to draw
// on: Bubble Tea would otherwise switch the screen, fail on its input
// (an epoll error for /dev/null) and leave the terminal in the alternate
// screen with the cursor hidden.
var errNoTerminal = errors.New("the console needs a terminal; use the headless commands or --json")

// isTTY reports whether s is a terminal device (printer.IsTerminal).
func isTTY(s any) bool { return printer.IsTerminal(s) }

// needTerminal checks, before anything is drawn or started, that the
// console can read keys from stdin and draw on stdout.
func needTerminal(stdin io.Reader, stdout io.Writer) error {
	if !isTTY(stdin) || !isTTY(stdout) {
		return errNoTerminal
	}
	return nil
}
