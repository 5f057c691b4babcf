package cli

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) recycleBinCmd() *cobra.Command {
	c := &cobra.Command{Use: "recycle-bin", Short: "list deleted projects awaiting purge", Args: cmdutil.NoArgs}
	fs := c.Flags()
	var o binOptions
	fs.StringVar(&o.Name, "name", "", "only projects whose name contains `S`")
	fs.StringVar(&o.ClientMatter, "client-matter", "", "only projects of the client matter with this `UUID`")
	fs.StringVar(&o.DeletedBy, "deleted-by", "", "only entries deleted by the user with e-mail `EMAIL` (exactly)")
	fs.Var(windowFlag{&o.Within}, "purging-within", "only entries purged within `D` (7d, 36h; overdue ones included and marked)")
	fs.BoolVar(&o.Check, "check", false, "monitoring probe: a Nagios-style summary line first; exit 0 when nothing purges within the window (default 7d), 3 when something does")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if o.ClientMatter = strings.TrimSpace(o.ClientMatter); o.ClientMatter != "" {
			if err := cmdutil.CheckUUID("client-matter ID", o.ClientMatter); err != nil {
				return r.p.UsageError(err)
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

// windowFlag is --purging-within, checked while parsing, so that a saved
// view with a bad window is refused at its line (views.go) as well.
type windowFlag struct{ d *time.Duration }

func (f windowFlag) String() string {
	if f.d == nil || *f.d == 0 {
		return ""
	}
	return purge.FormatWindow(*f.d)
}
func (f windowFlag) Type() string { return "window" }
func (f windowFlag) Set(s string) error {
	d, err := purge.ParseWindow(s)
	if err != nil {
		return err
	}
	*f.d = d
	return nil
}
