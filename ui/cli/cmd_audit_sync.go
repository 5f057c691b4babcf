package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck audit sync`: the pace is the audit budget's, which the global
// --max-rate lowers.
func (r *runner) auditSyncCmd() *cobra.Command {
	return &cobra.Command{Use: "sync", Short: "copy the audit log into the local mirror (resumable, paced inside the audit budget)", Args: cmdutil.NoArgs,
		RunE: r.run(func(ctx context.Context, _ []string) int { return r.auditSync(ctx, AuditSyncOptions{}) })}
}
