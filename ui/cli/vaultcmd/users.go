package vaultcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/projects"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
)

// UsersOptions are what `users` was asked and what it works with.
type UsersOptions struct {
	IO        *printer.Printer
	Client    func() (*api.Client, error)
	ProjectID string
}

// NewCmdUsers is the command; runF, when set, runs instead of RunUsers.
func NewCmdUsers(f *factory.Factory, runF func(context.Context, *UsersOptions) int) *cobra.Command {
	o := &UsersOptions{IO: f.IO, Client: f.Client}
	c := &cobra.Command{Use: "users PROJECT_ID", Short: "list users with access to a project", Args: cmdutil.ProjectIDArg}
	if runF == nil {
		runF = RunUsers
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		o.ProjectID = args[0]
		return runF(ctx, o)
	})
	return c
}

// RunUsers lists a project's users: one answer, aligned on all its rows.
// The table and the CSV mark the owner, the project's creator, as the
// console does (the service lists the owner as any other user): one walk
// of the project listing finds the creator (api/projects.Find), which the
// JSON, the service's objects as sent, does without.
func RunUsers(ctx context.Context, o *UsersOptions) int {
	c, err := o.Client()
	if err != nil {
		return o.IO.Fail(err)
	}
	creator := ""
	if o.IO.Is(printer.Table) || o.IO.Is(printer.CSV) {
		p, err := projects.Find(ctx, c, o.ProjectID)
		if err != nil {
			return o.IO.Fail(fmt.Errorf("the project's owner could not be looked up: %w", err))
		}
		if p != nil {
			creator = p.CreatorEmail
		}
	}
	_, err = printer.List(ctx, o.IO, c.ProjectUsers(o.ProjectID), printer.Listing[api.ProjectUser]{
		Headers: []string{"NAME", "EMAIL", "ACCESS", "ROLE", "USER ID"},
		Cells: func(u *api.ProjectUser) []string {
			r := records.User(u, creator)
			return []string{r[0], r[1], r[2], r[3], r[4]}
		},
		CSVHeaders: records.UserHeader(),
		CSVCells:   func(u *api.ProjectUser) []string { return records.User(u, creator) },
		Held:       true,
	})
	return o.IO.Done(err)
}
