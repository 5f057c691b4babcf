package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/metrics"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/serve"
)

// `vaultdeck serve`: the SSH server's flags are its package's (serve.Flags);
// the global flags are weighed per session by account.Resolve (serve.Config.Flags).
func (r *tree) serveCmd() *cobra.Command {
	var f serve.Flags
	c := &cobra.Command{Use: "serve --authorized-keys FILE", Short: "serve the console over SSH (public keys only)", Args: cmdutil.NoArgs}
	f.Register(c.Flags())
	c.AddCommand(r.serveActionsCmd())
	// The sessions' theme is checked while parsing, like the console's.
	theme := c.Flags().Lookup("theme")
	theme.Value = cmdutil.EnumFlag(&f.Config.Flags.Theme, themes.Names())
	theme.Usage = "colour `THEME` of the sessions (default: a bound profile's theme setting, else auto): " + strings.Join(themes.Names(), ", ")
	_ = c.RegisterFlagCompletionFunc("theme", cmdutil.Fixed(themes.Names()))
	c.Flags().StringVar(&f.Metrics, "metrics", "", "serve Prometheus metrics (the sessions open) at http://`ADDR`/metrics (ADDR a loopback HOST:PORT)")
	var alive bool
	c.Flags().BoolVar(&alive, "alive", false, "with --check: probe the running serve on --listen instead of the set-up (its SSH identification line), as a monitoring probe: exit 0 OK, 3 WARNING; needs no keys file or token")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if alive {
			if !f.Check {
				return r.p.Usage("--alive goes with --check: `serve --check --alive --listen ADDR` probes the running serve")
			}
			return serve.Alive(ctx, f.Config.Listen, r.p.Out())
		}
		if f.Metrics != "" {
			if err := metrics.CheckLoopback(f.Metrics); err != nil {
				return r.p.Usage("--metrics: %v", err)
			}
		}
		if r.env.Serve == nil {
			return cmdutil.NotAvailable(r.p)
		}
		return r.env.Serve(ctx, r.g, f, c.Flags().Changed)
	})
	return c
}
