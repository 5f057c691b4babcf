package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
)

func (r *runner) filesCmd() *cobra.Command {
	c := &cobra.Command{Use: "files PROJECT_ID", Short: "list a project's files", Args: projectIDArg}
	fs := c.Flags()
	status := new(string)
	fs.Var(&enumValue{p: status, allowed: fileStatuses(), list: true}, "status", "only files in processing status `S[,S]` (comma-separated, any case): "+strings.Join(fileStatuses(), ", "))
	_ = c.RegisterFlagCompletionFunc("status", fixed(fileStatuses()))
	name := fs.String("name", "", "only files whose name contains `S`")
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		projectID := pos[0]
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		q := api.FileQuery{Name: *name, Statuses: splitList(*status)}
		out := r.listing("[", "NAME", "ID", "STATUS", "SIZE", "UPLOADED", "TYPE")
		ctx = api.WithWaitObserver(ctx, out.p.observe)
		if out.iw != nil { // --json, --jsonl: each file's own bytes, only its ID decoded
			err = c.EachProjectFilePageRaw(ctx, projectID, q, out.rawPage)
			return out.end(err, "]")
		}
		err = c.EachProjectFilePage(ctx, projectID, q, func(page []api.Item[api.ProjectFile]) error {
			return out.page(len(page), func(i int) []byte { return page[i].JSON }, func(i int) []string {
				f := page[i].Value
				return []string{f.Name, f.ID, filestatus.Word(f.ProcessingStatus), r.size(f.Size), r.atAPI(f.UploadedAt), f.ContentType}
			})
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
