package cli

import (
	"bytes"
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) usersCmd() *cobra.Command {
	c := &cobra.Command{Use: "users PROJECT_ID", Short: "list users with access to a project", Args: cmdutil.ProjectIDArg}
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		projectID := pos[0]
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		ctx = api.WithWaitObserver(ctx, r.listProgress().observe)
		var users []api.Item[api.ProjectUser]
		_, err = c.ProjectUsers(projectID).Each(ctx, func(u *api.ProjectUser, it api.RawItem) error {
			users = append(users, api.Item[api.ProjectUser]{Value: *u, JSON: bytes.Clone(it.Bytes)})
			return nil
		}, nil)
		if err != nil {
			return r.fail(err)
		}
		if r.jsonOut() {
			return emitItems(r, users, func(u api.Item[api.ProjectUser]) []byte { return u.JSON })
		}
		t := r.table("NAME", "EMAIL", "ACCESS", "USER ID")
		for _, u := range users {
			x := u.Value
			t.row(x.Name, x.Email, x.AccessLevel, x.UserID)
		}
		return r.done(t.flush())
	})
	return c
}
