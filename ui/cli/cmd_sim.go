package cli

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck sim`: the simulator's flags are its package's (sim.Flags).
func (r *tree) simCmd() *cobra.Command {
	var f sim.Flags
	c := &cobra.Command{Use: "sim", Short: "run the local API simulator", Args: cmdutil.NoArgs,
		Long: "Serves a simulated workspace until stopped. It first prints base_url, ca_file (with --tls) and one token line per simulated user."}
	f.Register(c.Flags())
	_ = c.RegisterFlagCompletionFunc("scale", cmdutil.Fixed([]string{"small", "large"}))
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if r.env.Sim == nil {
			return cmdutil.NotAvailable(r.p)
		}
		// its lines on the printer's stdout: a lost announcement (nobody
		// learns the address or the tokens) ends it, exit 1, said
		return r.env.Sim(ctx, f, r.env.Stdout, r.env.Stderr)
	})
	return c
}
