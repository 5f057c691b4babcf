// Package matterscmd is `vaultdeck matters`: batch deletion of client
// matters from a CSV/TSV file (api/matters), its receipts, and restore.
package matterscmd

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// Options are what every matters command works with; each subcommand's
// own options embed them.
type Options struct {
	IO             *printer.Printer
	Client         func() (*api.Client, error)
	Connect        func() (*factory.Connection, error)
	Store          func() (*store.Store, error) // the receipts' database; the caller closes it
	RefuseReadOnly func() (code int, ok bool)
	Getenv         func(string) string
	Limits         api.Limits // a negative Matters: no client-side rate limit
	Now            func() time.Time
}

// NewCmdMatters is `matters` with its subcommands delete, receipts, receipt
// and restore, each with its options and Run function.
func NewCmdMatters(f *factory.Factory) *cobra.Command {
	o := &Options{IO: f.IO, Client: f.Client, Connect: f.Connect, Store: f.Store, RefuseReadOnly: f.RefuseReadOnly,
		Getenv: f.Getenv, Limits: f.Limits, Now: f.Now}
	c := &cobra.Command{
		Use:   "matters",
		Short: "batch-delete client matters from a CSV/TSV file, with receipts and restore",
		Long: `  vaultdeck matters list [--deleted|--present]
  vaultdeck matters delete FILE|- [--dry-run] [--format csv|tsv] [--yes]
  vaultdeck matters receipts
  vaultdeck matters receipt ID [--export csv|json] [--result R]
  vaultdeck matters restore --receipt ID [--dry-run] [--yes]
Exit status 3 when any pair is in errors or was not sent.`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.NeedSub,
	}
	c.AddCommand(newCmdList(f, o), newCmdDelete(f, o), newCmdReceipts(f, o), newCmdReceipt(f, o), newCmdRestore(f, o))
	return c
}
