// Package cmdutil is what every command of the command line shares and
// nothing else needs: the run adapter that hands cobra a command's exit
// status, usage errors, argument checks and the flag values that check
// what they are given while parsing (a wrong one is exit 2, naming it,
// before any request).
package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// Exit is a command's exit status as cobra carries it back to Main: every
// command's RunE returns one, so any other error from cobra is the command
// line's fault (exit 2, one line).
type Exit struct{ Code int }

func (e *Exit) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Run adapts a command's body to cobra: the printer learns the command's
// name (for its messages) and puts --jq or --template in place, the body
// runs on a context that ends when stdout or stderr is lost (so a job
// sends no request after its output failed), and its status goes back to
// Main.
func Run(f *factory.Factory, body func(ctx context.Context, args []string) int) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		name := CommandName(c)
		f.IO.Start(c.Context(), name)
		if printer.RulesGiven(f.IO) && !listsRows(name) {
			// refused before the command does anything: a follow, a crawl or a
			// write would otherwise run whole and be refused at its end
			return &Exit{Code: f.IO.Usage("--filter and --sort apply to listings; %s lists none", name)}
		}
		return &Exit{Code: body(f.IO.Watch(c.Context()), args)}
	}
}

// listsRows says whether the command prints a listing --filter and --sort
// apply to: a saved view's commands (account.ViewCommands), view itself,
// and the other listings. (A listing's command in a mode that lists
// nothing refuses them itself before it runs: status --watch.)
func listsRows(name string) bool {
	for _, v := range account.ViewCommands() {
		if strings.Join(v.Command, " ") == name {
			return true
		}
	}
	switch name {
	case "view", "matters list", "serve actions", "uploads", "profiles", "access snapshots":
		return true
	}
	return false
}

// CommandName is c's path without the program's name ("audit sync").
func CommandName(c *cobra.Command) string {
	return strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), "vaultdeck"), " ")
}

// UsageError marks an error as the command line's fault (exit 2).
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef is a UsageError.
func Usagef(format string, a ...any) error { return UsageError{fmt.Sprintf(format, a...)} }

// IsUsage reports whether err is the command line's fault.
func IsUsage(err error) bool {
	var u UsageError
	return errors.As(err, &u)
}

// CheckUUID refuses v unless it is a UUID (api.IsUUID: one ID check for
// the command line and the console); what names it ("project ID").
func CheckUUID(what, v string) error {
	if !api.IsUUID(v) {
		return Usagef("%q is not a %s (a UUID like 123e4567-e89b-12d3-a456-426614174000)", v, what)
	}
	return nil
}

// SplitList splits a comma-separated list, dropping blanks and whitespace.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// NotAvailable is a command whose part this build (or test) lacks.
func NotAvailable(p *printer.Printer) int {
	fmt.Fprintf(p.Err(), "vaultdeck: %s: not available in this build\n", p.Command())
	return printer.ExitError
}
