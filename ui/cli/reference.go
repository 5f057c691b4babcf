package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Reference is the Markdown command reference that `vaultdeck docs`
// prints: every command's usage line, summary and flags, written from the
// same definitions that parse them, so it cannot drift from the flags.
func Reference(root *cobra.Command) string {
	var b strings.Builder
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c != root || c.Name() == "help" {
			return
		}
		c.InitDefaultHelpFlag()
		fmt.Fprintf(&b, "#### `%s`\n\n%s.\n\n", c.CommandPath(), strings.TrimSuffix(c.Short, "."))
		fmt.Fprintf(&b, "```\n%s\n", c.UseLine())
		if c == root {
			b.WriteString("\nConsole flags:\n" + usages(c.LocalNonPersistentFlags()))
			b.WriteString("\nGlobal flags (before or after any command):\n" + usages(c.PersistentFlags()))
		} else if fl := usages(c.LocalNonPersistentFlags()); fl != "" {
			b.WriteString("\n" + fl)
		}
		b.WriteString("```\n\n")
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	return b.String()
}

// usages lists a command's flags without -h/--help, which every command has.
func usages(fs *pflag.FlagSet) string {
	out := pflag.NewFlagSet("", pflag.ContinueOnError)
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			out.AddFlag(f)
		}
	})
	return out.FlagUsages()
}
