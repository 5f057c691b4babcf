package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// consoleCmd makes the root command open the console: `vaultdeck
// [--read-only] [--theme T] ...`. Its flags are the root's own (not
// persistent), so `vaultdeck projects --theme mono` is an unknown flag.
func (r *tree) consoleCmd(root *cobra.Command) {
	var f ConsoleFlags
	f.register(root, true)
	var version bool
	root.Flags().BoolVar(&version, "version", false, "print the version and VCS revision of this build")
	root.RunE = r.run(func(ctx context.Context, _ []string) int {
		if version {
			return showVersion(r.p)
		}
		if r.env.Console == nil {
			fmt.Fprintln(r.env.Stderr, "vaultdeck: the console is not available in this build; see `vaultdeck help`")
			return ExitError
		}
		return r.env.Console(consoleContext(ctx), r.g, f)
	})
}

func (r *tree) demoCmd() *cobra.Command {
	var f DemoFlags
	c := &cobra.Command{Use: "demo", Short: "open the console against a built-in simulator", Args: cmdutil.NoArgs}
	f.Console.register(c, false)
	c.Flags().Int64Var(&f.Seed, "seed", sim.DefaultSeed, "simulator seed (the same as vaultdeck sim's default)")
	f.Scale = "small"
	c.Flags().Var(cmdutil.EnumFlag(&f.Scale, []string{"small", "large"}), "scale", "seed data size: `small|large` (large: 100,000 entries)")
	c.Flags().BoolVar(&f.NoRateLimit, "no-rate-limit", false, "turn the simulator's per-minute limits off")
	_ = c.RegisterFlagCompletionFunc("scale", cmdutil.Fixed([]string{"small", "large"}))
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if r.env.Demo == nil {
			return cmdutil.NotAvailable(r.p)
		}
		return r.env.Demo(consoleContext(ctx), r.g, f)
	})
	return c
}

// consoleContext is the command's context without the printer's observer of
// waits: the console shows a wait where its data will appear, and the
// printer's line on stderr would be drawn under the console's screen (a
// write job keeps the context's observer beside its own).
func consoleContext(ctx context.Context) context.Context { return api.WithWaitObserver(ctx, nil) }
