package cli

import (
	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// The names the help and docs commands (cmd_help.go, cmd_docs.go) use for
// cmdutil's helpers.

func noArgs(c *cobra.Command, args []string) error { return cmdutil.NoArgs(c, args) }

func subNames(c *cobra.Command) []string { return cmdutil.SubNames(c) }

func usagef(format string, a ...any) error { return cmdutil.Usagef(format, a...) }

func enumFlag(p *string, allowed []string) *cmdutil.Enum { return cmdutil.EnumFlag(p, allowed) }

func fixed(vals []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return cmdutil.Fixed(vals)
}
