package accountcmd

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// WhoamiOptions are what `whoami` works with.
type WhoamiOptions struct {
	IO     *printer.Printer
	Client func() (*api.Client, error)
}

// NewCmdWhoami is the command; runF, when set, runs instead of RunWhoami.
func NewCmdWhoami(f *factory.Factory, runF func(context.Context, *WhoamiOptions) int) *cobra.Command {
	o := &WhoamiOptions{IO: f.IO, Client: f.Client}
	c := &cobra.Command{Use: "whoami", Short: "show the account behind the token", Args: cmdutil.NoArgs}
	if runF == nil {
		runF = RunWhoami
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return runF(ctx, o) })
	return c
}

// RunWhoami shows the account behind the token: the service's own object
// (unknown fields included) as JSON, or its fields and the base URL.
func RunWhoami(ctx context.Context, o *WhoamiOptions) int {
	p := o.IO
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	w, err := c.WhoAmI(p.Watch(ctx))
	if err != nil {
		return p.Fail(err)
	}
	return p.Done(p.Show(printer.Value{Raw: w.Raw, Headers: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"name", w.Name}, {"email", w.Email}, {"user id", w.UserID}, {"workspace", w.WorkspaceName},
		{"workspace id", w.WorkspaceID}, {"token", w.TokenName}, {"base url", c.Base()},
		{"permissions", strings.Join(w.Permissions, ", ")},
	}}))
}
