package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck audit stats`: activity at a glance, from the local mirror.
func (r *runner) auditStatsCmd() *cobra.Command {
	var o AuditStatsOptions
	c := &cobra.Command{Use: "stats", Short: "activity at a glance from the local mirror: entries per hour or day, top users, addresses and types, what stands out",
		Long: `Counts the mirror's entries over a range (no request is made): a histogram by
hour or day, the top users, addresses and types, and marks on what stands out:
a burst of deletions or exports (one such type reaching 10 in a bucket and more
than 4 times its median per bucket over the range), a login from an address
the user never used before (for a user whose addresses repeat), and activity
at an hour of the day the user is never active at (for a user whose 50 or more
entries of the 28 days before the range keep to at most 16 hours of the day). Run ` + "`vaultdeck audit sync`" + ` first to make or bring up the mirror.
--json prints one object (since, until, by, type, total, counted, buckets,
top_users, top_ips, top_types, marks, more_marks, mirror).`,
		Args: cmdutil.NoArgs}
	fs := c.Flags()
	fs.StringVar(&o.Since, "since", "7d", "from `T`: 2026-11-01, 2026-11-01T09:30:00Z, or an age such as 36h or 7d")
	fs.StringVar(&o.Until, "until", "", "before `T` (same forms as --since; default now)")
	fs.StringVar(&o.By, "by", "", "histogram buckets of an `hour|day` (default: hour for ranges up to 3 days, else day)")
	fs.StringVar(&o.Type, "type", "", "count only entries of log type `T` in the histogram and the top users and addresses")
	_ = c.RegisterFlagCompletionFunc("by", cmdutil.Fixed([]string{"hour", "day"}))
	c.RunE = r.run(func(ctx context.Context, _ []string) int { return r.auditStats(ctx, o) })
	return c
}
