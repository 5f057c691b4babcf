package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck login`: the global --profile, --region, --base-url and
// --ca-file name the profile and where it points; they reach login parsed,
// never rebuilt into argv.
func (r *runner) loginCmd() *cobra.Command {
	var readOnly, insecure bool
	c := &cobra.Command{
		Use:   "login",
		Short: "store a token for a profile",
		Long: `Saves an API token for a profile after checking it with the API. The token is
read from a hidden prompt, or from standard input when that is not a terminal
(e.g. ` + "`pass show vault | vaultdeck login`" + `); never from the command line.
It is stored in the system keyring; --insecure-storage stores it in a private
plain-text file instead, for machines without a usable keyring.
--profile names the profile, --region or --base-url (and --ca-file) where it points.`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.Usagef("login takes no arguments: the token is read from a hidden prompt, or from standard input when it is not a terminal, never from the command line")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&readOnly, "read-only", false, "hide every action that changes the workspace")
	c.Flags().BoolVar(&insecure, "insecure-storage", false, "store the token in a plain-text file instead of the keyring")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if r.env.Login == nil {
			return r.notAvailable()
		}
		if c.Flags().Changed("region") && c.Flags().Changed("base-url") {
			return r.p.UsageError(cmdutil.Usagef("give --region or --base-url, not both"))
		}
		return r.env.Login(ctx, loginOptions{Flags: r.g.Flags, ReadOnly: readOnly, Insecure: insecure, Given: c.Flags().Changed})
	})
	return c
}

func (r *runner) logoutCmd() *cobra.Command {
	var forget bool
	c := &cobra.Command{Use: "logout", Short: "forget a profile's token (--profile names it)", Args: cmdutil.NoArgs}
	c.Flags().BoolVar(&forget, "forget", false, "also delete the profile with its cached data")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if r.env.Logout == nil {
			return r.notAvailable()
		}
		return r.env.Logout(ctx, logoutOptions{Profile: r.g.Profile, Forget: forget})
	})
	return c
}

func (r *runner) profilesCmd() *cobra.Command {
	var setDefault string
	c := &cobra.Command{Use: "profiles", Short: "list stored profiles (--set-default NAME changes the default)", Args: cmdutil.NoArgs}
	c.Flags().StringVar(&setDefault, "set-default", "", "make profile `NAME` the default")
	_ = c.RegisterFlagCompletionFunc("set-default", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return r.profileNames(), cobra.ShellCompDirectiveNoFileComp
	})
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if r.env.Profiles == nil {
			return r.notAvailable()
		}
		return r.env.Profiles(ctx, profilesOptions{Profile: r.g.Profile, SetDefault: setDefault})
	})
	return c
}
