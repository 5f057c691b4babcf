package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api"
)

// fail prints an error and returns the error status.
func (r *runner) fail(err error) int {
	if msg, ok := r.shapeFailed(err); ok { // --jq or --template failed: its message alone
		if msg != "" {
			fmt.Fprintf(r.env.Stderr, "vaultdeck %s: %s\n", r.cmd, oneLine(msg))
		}
		return ExitError
	}
	fmt.Fprintf(r.env.Stderr, "vaultdeck %s: %s\n", r.cmd, oneLine(err.Error()))
	return ExitError
}

// projectIDArg is the argument check of a command that takes exactly one
// project ID: checked here, before any request.
func projectIDArg(_ *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("give exactly one project ID")
	}
	return checkUUID("project ID", args[0])
}

// usage reports a usage error in one line naming the problem and the
// command's help (exit 2).
func (r *runner) usage(format string, a ...any) int {
	return oneLineUsage(r.env.Stderr, r.cmd, usagef(format, a...))
}

// readIDs reads IDs as people paste them (one per line, or separated by
// commas, semicolons or spaces; BOM, CRLF, quotes and blank lines
// tolerated; duplicates dropped): api.ParseIDs, the console's reader too.
func readIDs(in io.Reader) ([]string, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	return api.ParseIDs(string(data)), nil
}

// splitList splits a comma-separated list, dropping blanks and whitespace.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
