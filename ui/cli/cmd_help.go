package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// `vaultdeck help [COMMAND...]` prints the same full help as `COMMAND
// --help`; an unknown command is a usage error (exit 2), not a shrug.
func (r *runner) helpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "show the help of vaultdeck or of a command",
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			c, _, err := root.Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return subNames(c), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 {
				return usagef("unknown command %q", strings.Join(args, " "))
			}
			c.InitDefaultHelpFlag()
			return c.Help()
		},
	}
}
