package cli

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api"
)

func (r *runner) usersCmd() *cobra.Command {
	c := &cobra.Command{Use: "users PROJECT_ID", Short: "list users with access to a project", Args: projectIDArg}
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		projectID := pos[0]
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		ctx = api.WithWaitObserver(ctx, r.listProgress().observe)
		users, err := c.ProjectUserItems(ctx, projectID)
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
