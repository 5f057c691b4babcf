package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) projectsCmd() *cobra.Command {
	c := &cobra.Command{Use: "projects", Short: "list the workspace's vault projects", Args: cmdutil.NoArgs}
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
			_, err = c.Projects(api.ProjectQuery{Name: *name}).Raw(ctx, out.rawItem, out.rawPageDone)
			return out.end(err, "]")
		}
		var page []api.Project // the page's projects, printed at its end
		_, err = c.Projects(api.ProjectQuery{Name: *name}).Each(ctx, func(p *api.Project, _ api.RawItem) error {
			page = append(page, *p)
			return nil
		}, func() error {
			err := out.page(len(page), nil, func(i int) []string {
				p := page[i]
				return []string{p.Name, p.ID, fmt.Sprint(int64(p.FilesCount)), r.size(p.SizeBytes), r.atAPI(p.UpdatedAt), p.CreatorEmail, yesNo(p.IsKnowledgeBaseProject)}
			})
			page = page[:0]
			return err
		})
		return out.end(err, "]")
	})
	return c
}
