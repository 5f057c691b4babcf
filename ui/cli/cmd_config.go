package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck config get [KEY] | set KEY VALUE | unset KEY`: per-profile
// defaults (config.go keeps them).
func (r *runner) configCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "config",
		Short: "per-profile defaults: " + strings.Join(account.Keys(), ", "),
		Long:  "The profile is --profile, else the default one. A flag given on the command line always wins over these.",
		Args:  cmdutil.NoArgs,
		RunE:  cmdutil.NeedSub,
	}
	keys := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return account.Keys(), cobra.ShellCompDirectiveNoFileComp
	}
	get := &cobra.Command{Use: "get [KEY]", Short: "print one setting, or all of them", Args: cobra.MaximumNArgs(1), ValidArgsFunction: keys}
	get.RunE = r.run(func(_ context.Context, args []string) int { return r.config("get", args) })
	set := &cobra.Command{Use: "set KEY VALUE", Short: "store a setting (checked first)", Args: cmdutil.ExactArgs(2, "give a KEY and a VALUE"),
		Long: "Everything after KEY is the value, so a value starting with - (a negative duration) is checked as a value."}
	// A value such as -1s is a value to check, not a flag: flags end at
	// the first word.
	set.Flags().SetInterspersed(false)
	set.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		switch {
		case len(args) == 0:
			return account.Keys(), cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == account.KeyTheme:
			return themes.Names(), cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == account.KeyReadOnly:
			return []string{"true", "false"}, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	set.RunE = r.run(func(_ context.Context, args []string) int { return r.config("set", args) })
	unset := &cobra.Command{Use: "unset KEY", Short: "go back to the default", Args: cmdutil.ExactArgs(1, "give a KEY"), ValidArgsFunction: keys}
	unset.RunE = r.run(func(_ context.Context, args []string) int { return r.config("unset", args) })
	c.AddCommand(get, set, unset)
	return c
}
