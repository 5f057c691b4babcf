package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck completion bash|zsh|fish|powershell`: cobra writes the scripts from the
// same command tree that parses the command line; they call the binary's
// hidden __complete command for candidates, so commands, flags, profile
// names (from the store) and view names never drift from this build.
func (r *tree) completionCmd() *cobra.Command {
	shells := []string{"bash", "zsh", "fish", "powershell"}
	c := &cobra.Command{
		Use:       "completion bash|zsh|fish|powershell",
		Short:     "print a shell completion script (commands, flags, profile names)",
		Long:      "bash: source <(vaultdeck completion bash)\nzsh:  source <(vaultdeck completion zsh)\nfish: vaultdeck completion fish | source\nPowerShell: vaultdeck completion powershell | Out-String | Invoke-Expression",
		ValidArgs: shells,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 || !slices.Contains(shells, args[0]) {
				got := ""
				if len(args) > 0 {
					got = args[0]
				}
				return cmdutil.Usagef("give one shell: bash, zsh, fish or powershell (got %q)", got)
			}
			return nil
		},
	}
	c.RunE = r.run(func(_ context.Context, args []string) int {
		root, out := c.Root(), r.env.Stdout
		var err error
		switch args[0] {
		case "bash":
			err = root.GenBashCompletionV2(out, true)
		case "zsh":
			err = root.GenZshCompletion(out)
		case "fish":
			err = root.GenFishCompletion(out, true)
		case "powershell":
			err = root.GenPowerShellCompletionWithDesc(out)
		}
		if err != nil {
			return r.fail(fmt.Errorf("writing the %s script: %w", args[0], err))
		}
		return ExitOK
	})
	return c
}
