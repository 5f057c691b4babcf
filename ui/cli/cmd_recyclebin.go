package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/purge"
)

func (r *runner) recycleBinCmd() *cobra.Command {
	c := &cobra.Command{Use: "recycle-bin", Short: "list deleted projects awaiting purge", Args: noArgs}
	fs := c.Flags()
	var o binOptions
	fs.StringVar(&o.Name, "name", "", "only projects whose name contains `S`")
	fs.StringVar(&o.ClientMatter, "client-matter", "", "only projects of the client matter with this `UUID`")
	fs.StringVar(&o.DeletedBy, "deleted-by", "", "only entries deleted by the user with e-mail `EMAIL` (exactly)")
	within := fs.String("purging-within", "", "only entries purged within `D` (7d, 36h; overdue ones included and marked)")
	fs.BoolVar(&o.Check, "check", false, "monitoring probe: a Nagios-style summary line first; exit 0 when nothing purges within the window (default 7d), 3 when something does")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if *within != "" {
			d, err := purge.ParseWindow(*within)
			if err != nil {
				return oneLineUsage(r.env.Stderr, r.cmd, usagef("--purging-within: %s", err))
			}
			o.Within = d
		}
		if o.ClientMatter = strings.TrimSpace(o.ClientMatter); o.ClientMatter != "" {
			if err := checkUUID("client-matter ID", o.ClientMatter); err != nil {
				return oneLineUsage(r.env.Stderr, r.cmd, err)
			}
		}
		if o.Check {
			if r.jsonOut() || r.g.CSV {
				return r.usage("--check prints the probe's text; it does not combine with --json, --jsonl or --csv")
			}
			if o.Within == 0 {
				o.Within = purge.Soon
			}
		}
		return r.listRecycleBin(ctx, o)
	})
	return c
}
