package matterscmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

func newCmdList(f *factory.Factory, o *Options) *cobra.Command {
	var deleted, present bool
	c := &cobra.Command{Use: "list", Short: "list the workspace's client matters as the service keeps them, deleted ones too", Args: cmdutil.NoArgs,
		Long: `Lists GET /api/v1/client_matters: one request, within the client-matters budget (150 a
minute, shared with deletions). CLIENT_ID and MATTER_ID are the simulator's mapping from
v1 names to pairs (the service documents none; vaultdeck help matters); "-" when a
record does not state it.`}
	c.Flags().BoolVar(&deleted, "deleted", false, "only the deleted matters")
	c.Flags().BoolVar(&present, "present", false, "only the matters not deleted")
	c.MarkFlagsMutuallyExclusive("deleted", "present")
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return RunList(ctx, o, deleted, present) })
	return c
}

// RunList prints the service's client-matter list, its records in the
// service's order.
func RunList(ctx context.Context, o *Options, deleted, present bool) int {
	c, err := o.Client()
	if err != nil {
		return o.IO.Fail(err)
	}
	cells := o.IO.Cells()
	l := printer.Listing[api.ClientMatter]{
		Headers: []string{"NAME", "CLIENT_ID", "MATTER_ID", "STATUS", "DELETED_AT", "CREATED_AT", "CREATED_BY", "ID"},
		Cells: func(m *api.ClientMatter) []string {
			status := "present"
			if m.Deleted() {
				status = "deleted"
			}
			return []string{m.Name, dash(m.ClientID), dash(m.MatterID), status, cells.APITime(m.DeletedAt), cells.APITime(m.CreatedAt), m.UserEmail, m.ID}
		},
		Held: true,
	}
	if deleted || present {
		l.Keep = func(m *api.ClientMatter) bool { return m.Deleted() == deleted }
	}
	_, err = printer.List(ctx, o.IO, c.ClientMatters(), l)
	return o.IO.Done(err)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
