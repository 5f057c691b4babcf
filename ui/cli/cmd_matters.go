package cli

import (
	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck matters delete|receipts|receipt|restore`: one file per
// subcommand (cmd_matters_*.go).
func (r *runner) mattersCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "matters",
		Short: "batch-delete client matters from a CSV/TSV file, with receipts and restore",
		Long: `  vaultdeck matters delete FILE|- [--dry-run] [--format csv|tsv] [--yes]
  vaultdeck matters receipts
  vaultdeck matters receipt ID [--export csv|json] [--result R]
  vaultdeck matters restore --receipt ID [--dry-run] [--yes]
Exit status 3 when any pair is in errors or was not sent.`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.NeedSub,
	}
	c.AddCommand(r.mattersDeleteCmd(), r.mattersReceiptsCmd(), r.mattersReceiptCmd(), r.mattersRestoreCmd())
	return c
}
