package cmdutil

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// NoArgs refuses any positional argument, naming it.
func NoArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if !c.HasParent() {
		return Usagef("unknown command %q%s", args[0], didYouMean(c, args[0]))
	}
	if c.HasSubCommands() {
		return Usagef("unknown subcommand %q%s; give one of: %s", args[0], didYouMean(c, args[0]), strings.Join(SubNames(c), ", "))
	}
	return Usagef("unexpected argument %q", args[0])
}

// didYouMean names c's subcommands near typed, as cobra finds them (a
// prefix, or a Levenshtein distance of at most two), in the form of one
// line: `; did you mean "projects"?`. Nothing when none is near.
func didYouMean(c *cobra.Command, typed string) string {
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2 // cobra's own default, which it sets only on its own path
	}
	near := c.SuggestionsFor(typed)
	if len(near) == 0 {
		return ""
	}
	for i, n := range near {
		near[i] = strconv.Quote(n)
	}
	return "; did you mean " + strings.Join(near, " or ") + "?"
}

// SubNames are c's available subcommands' names.
func SubNames(c *cobra.Command) []string {
	var out []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			out = append(out, s.Name())
		}
	}
	return out
}

// NeedSub is the body of a command that only groups subcommands.
func NeedSub(c *cobra.Command, args []string) error {
	if err := NoArgs(c, args); err != nil {
		return err
	}
	var uses []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			uses = append(uses, s.Use)
		}
	}
	return Usagef("give a subcommand: %s", strings.Join(uses, " | "))
}

// ProjectIDArg is the argument check of a command that takes exactly one
// project ID: checked here, before any request.
func ProjectIDArg(_ *cobra.Command, args []string) error {
	if len(args) != 1 {
		return Usagef("give exactly one project ID")
	}
	return CheckUUID("project ID", args[0])
}

// EmailArg is the argument check of a command that takes one e-mail
// address.
func EmailArg(_ *cobra.Command, args []string) error {
	if len(args) != 1 || !strings.Contains(args[0], "@") {
		return Usagef("give exactly one e-mail address")
	}
	return nil
}

// ExactArgs wants n positional arguments, else says what to give.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) != n {
			return Usagef("%s (%s)", what, c.UseLine())
		}
		return nil
	}
}

// Fixed completes a flag from a fixed list.
func Fixed(vals []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// NoCompletion completes a flag with nothing (no file names).
func NoCompletion(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}
