package accountcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// NewCmdLogin is `vaultdeck login`: the global --profile, --region,
// --base-url and --ca-file name the profile and where it points; they
// reach run parsed, never rebuilt into argv. run is RunLogin over the
// process's Env (nil: not available in this build).
func NewCmdLogin(f *factory.Factory, run func(context.Context, LoginOptions) int) *cobra.Command {
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
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int {
		if run == nil {
			return cmdutil.NotAvailable(f.IO)
		}
		if c.Flags().Changed("region") && c.Flags().Changed("base-url") {
			return f.IO.UsageError(cmdutil.Usagef("give --region or --base-url, not both"))
		}
		return run(ctx, LoginOptions{Flags: *f.Flags, ReadOnly: readOnly, Insecure: insecure, Given: c.Flags().Changed, IO: streams(f)})
	})
	return c
}

// NewCmdLogout is `vaultdeck logout`; run is RunLogout over the process's
// Env (nil: not available in this build).
func NewCmdLogout(f *factory.Factory, run func(context.Context, LogoutOptions) int) *cobra.Command {
	var forget bool
	c := &cobra.Command{Use: "logout", Short: "forget a profile's token (--profile names it)", Args: cmdutil.NoArgs}
	c.Flags().BoolVar(&forget, "forget", false, "also delete the profile with its cached data")
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int {
		if run == nil {
			return cmdutil.NotAvailable(f.IO)
		}
		return run(ctx, LogoutOptions{Profile: f.Flags.Profile, Forget: forget, IO: streams(f)})
	})
	return c
}

// NewCmdProfiles is `vaultdeck profiles`; run is RunProfiles over the
// process's Env (nil: not available in this build).
func NewCmdProfiles(f *factory.Factory, run func(context.Context, ProfilesOptions) int) *cobra.Command {
	var setDefault string
	var check bool
	c := &cobra.Command{Use: "profiles", Short: "list stored profiles (--set-default NAME changes the default, --check asks whoami of each)", Args: cmdutil.NoArgs,
		Long: `Lists the stored profiles, the active one marked. --check asks whoami for every
profile, as a command run with --profile NAME would: its workspace, where its
token was found (never the token), and the features its token lacks permissions
for. Exit status 1 when any profile fails (no token, refused, unreachable, or
another workspace than the one it was logged in to); lacking a permission is
not a failure.`}
	c.Flags().StringVar(&setDefault, "set-default", "", "make profile `NAME` the default")
	c.Flags().BoolVar(&check, "check", false, "ask whoami for every profile: workspace, token source, missing permissions")
	_ = c.RegisterFlagCompletionFunc("set-default", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return ProfileNames(f.Store), cobra.ShellCompDirectiveNoFileComp
	})
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int {
		if run == nil {
			return cmdutil.NotAvailable(f.IO)
		}
		o := ProfilesOptions{Profile: f.Flags.Profile, SetDefault: setDefault, IO: streams(f),
			Show: func(v printer.Value) error { return f.IO.Show(v) }}
		if check {
			sh, err := f.Shared()
			if err != nil {
				return f.IO.Fail(err)
			}
			o.Check = &CheckOptions{Shared: sh, Tell: f.TellSecret}
		}
		return run(ctx, o)
	})
	return c
}

// streams are the printer's stdout and stderr, for the commands that
// write to an Env.
func streams(f *factory.Factory) Streams { return Streams{Out: f.IO.Out(), Err: f.IO.Err()} }

// ProfileNames lists the stored profiles (none when the store cannot be
// read: completion must never fail loudly).
func ProfileNames(open func() (*store.Store, error)) []string {
	st, err := open()
	if err != nil {
		return nil
	}
	defer st.Close()
	ps, err := st.Profiles()
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(ps))
	for _, p := range ps {
		names = append(names, p.Name)
	}
	return names
}
