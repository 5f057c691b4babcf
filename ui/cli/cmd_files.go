package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) filesCmd() *cobra.Command {
	c := &cobra.Command{Use: "files PROJECT_ID", Short: "list a project's files", Args: cmdutil.ProjectIDArg}
	fs := c.Flags()
	status := new(string)
	fs.Var(cmdutil.EnumList(status, fileStatuses()), "status", "only files in processing status `S[,S]` (comma-separated, any case): "+strings.Join(fileStatuses(), ", "))
	_ = c.RegisterFlagCompletionFunc("status", cmdutil.Fixed(fileStatuses()))
	name := fs.String("name", "", "only files whose name contains `S`")
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		projectID := pos[0]
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		q := api.FileQuery{Name: *name, Statuses: cmdutil.SplitList(*status)}
		out := r.listing("[", "NAME", "ID", "STATUS", "SIZE", "UPLOADED", "TYPE")
		ctx = api.WithWaitObserver(ctx, out.p.observe)
		if out.iw != nil { // --json, --jsonl: each file's own bytes, only its ID decoded
			_, err = c.ProjectFiles(projectID, q).Raw(ctx, out.rawItem, out.rawPageDone)
			return out.end(err, "]")
		}
		var page []api.ProjectFile // the page's files, printed at its end
		_, err = c.ProjectFiles(projectID, q).Each(ctx, func(f *api.ProjectFile, _ api.RawItem) error {
			page = append(page, *f)
			return nil
		}, func() error {
			err := out.page(len(page), nil, func(i int) []string {
				f := page[i]
				return []string{f.Name, f.ID, filestatus.Word(f.ProcessingStatus), r.size(f.Size), r.atAPI(f.UploadedAt), f.ContentType}
			})
			page = page[:0]
			return err
		})
		return out.end(err, "]")
	})
	return c
}

// fileStatuses are the processing statuses --status takes (api.Status*).
func fileStatuses() []string {
	var out []string
	for _, s := range []api.Status{api.StatusUploaded, api.StatusProcessing, api.StatusReadyToQuery,
		api.StatusReadyToReview, api.StatusRecoverableFailure, api.StatusUnrecoverableFailure} {
		out = append(out, strings.ToLower(string(s)))
	}
	return out
}
