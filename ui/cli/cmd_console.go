package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// consoleCmd makes the root command open the console: `vaultdeck
// [--read-only] [--theme T] ...`. Its flags are the root's own (not
// persistent), so `vaultdeck projects --theme mono` is an unknown flag.
func (r *runner) consoleCmd(root *cobra.Command) {
	var f ConsoleFlags
	f.register(root, true)
	var showVersion bool
	root.Flags().BoolVar(&showVersion, "version", false, "print the version and VCS revision of this build")
	root.RunE = r.run(func(ctx context.Context, _ []string) int {
		if showVersion {
			r.cmd = "version"
			return r.version()
		}
		if r.env.Console == nil {
			fmt.Fprintln(r.env.Stderr, "vaultdeck: the console is not available in this build; see `vaultdeck help`")
			return ExitError
		}
		return r.env.Console(ctx, r.g, f)
	})
}

func (r *runner) demoCmd() *cobra.Command {
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
			return r.notAvailable()
		}
		return r.env.Demo(ctx, r.g, f)
	})
	return c
}

// notAvailable is a command whose part this build (or test) lacks.
func (r *runner) notAvailable() int {
	fmt.Fprintf(r.env.Stderr, "vaultdeck: %s: not available in this build\n", r.cmd)
	return ExitError
}
