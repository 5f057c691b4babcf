package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck audit [--since T] ...` queries; `audit sync` and `audit follow`
// are its subcommands (cmd_audit_sync.go, cmd_audit_follow.go).
func (r *runner) auditCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "audit",
		Short: "the audit log: query it (from the local mirror where it reaches), sync the mirror, follow it as JSON Lines",
		Long: `Without a subcommand, audit lists entries, newest first (with --since, or
--oldest, oldest first): from the local mirror where it covers the range asked
(run ` + "`vaultdeck audit sync`" + ` first), from the service otherwise, saying on
stderr which. Without a mirror, newest first is read as the console reads it:
searches back in time (with --type, from the type's latest entry), paced
within the audit budget.
--type is asked of the service and checked here as well. The table's columns
are sized from the first page and kept for the pages after it.`,
		Args: cmdutil.NoArgs,
	}
	fs := c.Flags()
	var o AuditQueryOptions
	fs.StringVar(&o.Since, "since", "", "entries at or after `T`: 2026-11-01, 2026-11-01T09:30:00Z, or an age such as 36h or 7d")
	fs.StringVar(&o.Until, "until", "", "entries before `T` (same forms as --since)")
	fs.StringVar(&o.Type, "type", "", "only entries of log type `T` (e.g. auth:login)")
	fs.StringVar(&o.User, "user", "", "only entries of the user with e-mail `EMAIL`")
	fs.StringVar(&o.IP, "ip", "", "only entries from address `ADDR`")
	fs.StringVar(&o.Grep, "grep", "", "only entries whose JSON contains `TEXT` (ignoring case)")
	fs.IntVar(&o.Limit, "limit", 100, "show at most `N` entries (0: all)")
	fs.BoolVar(&o.Newest, "newest", false, "newest first (the default without --since; with --since, back to it)")
	fs.BoolVar(&o.HideOwnReads, "hide-own-reads", false, "leave out this token's user's own reads of the log (api:audit_log_fetch), as the console's audit view does until h")
	fs.BoolVar(&o.Oldest, "oldest", false, "oldest first (the default with --since; without it, from the log's first entry)")
	c.RunE = r.run(func(ctx context.Context, _ []string) int { return r.auditQuery(ctx, o) })
	c.AddCommand(r.auditSyncCmd(), r.auditFollowCmd(), r.auditStatsCmd())
	return c
}
