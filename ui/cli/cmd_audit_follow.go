package cli

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) auditFollowCmd() *cobra.Command {
	c := &cobra.Command{Use: "follow", Short: "stream every new audit entry as JSON Lines, to a file that is its own checkpoint or to stdout", Args: cmdutil.NoArgs}
	fs := c.Flags()
	var o AuditFollowOptions
	fs.StringVar(&o.Out, "out", "", "append JSON Lines to `FILE`; the file is its own checkpoint (exactly once across restarts)")
	fs.StringVar(&o.Checkpoint, "checkpoint", "", "with stdout: keep the last entry delivered under `NAME` in the local database (at least once across restarts)")
	fs.StringVar(&o.Start, "start", "earliest", "where to begin when nothing was delivered yet: `earliest|latest` (the whole trail, or from now)")
	fs.DurationVar(&o.Poll, "poll", audit.DefaultPoll, "wait between reads once caught up (it grows to a minute while only this follower's own reads arrive)")
	fs.BoolVar(&o.Once, "once", false, "stop once caught up (for a timer or cron) instead of following")
	fs.BoolVar(&o.NoMirror, "no-mirror", false, "do not keep the local mirror up to date while following")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		return r.auditFollow(ctx, o)
	})
	return c
}
