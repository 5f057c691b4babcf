package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

func (r *runner) whoamiCmd() *cobra.Command {
	c := &cobra.Command{Use: "whoami", Short: "show the account behind the token", Args: cmdutil.NoArgs}
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		w, err := c.WhoAmI(r.p.Watch(ctx))
		if err != nil {
			return r.fail(err)
		}
		if r.jsonOut() {
			// The server's own object, unknown fields included, on one line.
			return r.done(r.p.Show(printer.Value{Raw: w.Raw}))
		}
		t := r.table("FIELD", "VALUE")
		t.row("name", w.Name)
		t.row("email", w.Email)
		t.row("user id", w.UserID)
		t.row("workspace", w.WorkspaceName)
		t.row("workspace id", w.WorkspaceID)
		t.row("token", w.TokenName)
		t.row("base url", c.Base())
		t.row("permissions", strings.Join(w.Permissions, ", "))
		return r.done(t.flush())
	})
	return c
}
