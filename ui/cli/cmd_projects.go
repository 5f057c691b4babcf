package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api"
)

func (r *runner) projectsCmd() *cobra.Command {
	c := &cobra.Command{Use: "projects", Short: "list the workspace's vault projects", Args: noArgs}
	fs := c.Flags()
	name := fs.String("name", "", "only projects whose name contains `S` (case-insensitive)")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		out := r.listing("[", "NAME", "ID", "FILES", "SIZE", "UPDATED", "CREATOR", "KB")
		ctx = api.WithWaitObserver(ctx, out.p.observe)
		if out.iw != nil { // --json, --jsonl: each project's own bytes, only its ID decoded
			err = c.EachProjectPageRaw(ctx, *name, out.rawPage)
			return out.end(err, "]")
		}
		err = c.EachProjectPage(ctx, *name, func(page []api.Item[api.Project]) error {
			return out.page(len(page), func(i int) []byte { return page[i].JSON }, func(i int) []string {
				p := page[i].Value
				return []string{p.Name, p.ID, fmt.Sprint(int64(p.FilesCount)), r.size(p.SizeBytes), r.atAPI(p.UpdatedAt), p.CreatorEmail, yesNo(p.IsKnowledgeBaseProject)}
			})
		})
		return out.end(err, "]")
	})
	return c
}
