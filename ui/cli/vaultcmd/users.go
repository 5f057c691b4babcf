package vaultcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
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
func RunUsers(ctx context.Context, o *UsersOptions) int {
	c, err := o.Client()
	if err != nil {
		return o.IO.Fail(err)
	}
	_, err = printer.List(ctx, o.IO, c.ProjectUsers(o.ProjectID), printer.Listing[api.ProjectUser]{
		Headers: []string{"NAME", "EMAIL", "ACCESS", "USER ID"},
		Cells:   func(u *api.ProjectUser) []string { return []string{u.Name, u.Email, u.AccessLevel, u.UserID} },
		Held:    true,
	})
	return o.IO.Done(err)
}
