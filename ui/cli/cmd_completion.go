package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck completion bash|zsh|fish`: cobra writes the scripts from the
// same command tree that parses the command line; they call the binary's
// hidden __complete command for candidates, so commands, flags, profile
// names (from the store) and view names never drift from this build.
func (r *tree) completionCmd() *cobra.Command {
	shells := []string{"bash", "zsh", "fish"}
	c := &cobra.Command{
		Use:       "completion bash|zsh|fish",
		Short:     "print a shell completion script (commands, flags, profile names)",
		Long:      "bash: source <(vaultdeck completion bash)\nzsh:  source <(vaultdeck completion zsh)\nfish: vaultdeck completion fish | source",
		ValidArgs: shells,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 || (args[0] != "bash" && args[0] != "zsh" && args[0] != "fish") {
				got := ""
				if len(args) > 0 {
					got = args[0]
				}
				return cmdutil.Usagef("give one shell: bash, zsh or fish (got %q)", got)
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
		}
		if err != nil {
			return r.fail(fmt.Errorf("writing the %s script: %w", args[0], err))
		}
		return ExitOK
	})
	return c
}
