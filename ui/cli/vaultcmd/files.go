package vaultcmd

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
)

// FilesOptions are what `files` was asked and what it works with.
type FilesOptions struct {
	IO        *printer.Printer
	Client    func() (*api.Client, error)
	ProjectID string
	Query     api.FileQuery
}

// NewCmdFiles is the command; runF, when set, runs instead of RunFiles.
func NewCmdFiles(f *factory.Factory, runF func(context.Context, *FilesOptions) int) *cobra.Command {
	o := &FilesOptions{IO: f.IO, Client: f.Client}
	c := &cobra.Command{Use: "files PROJECT_ID", Short: "list a project's files", Args: cmdutil.ProjectIDArg}
	fs := c.Flags()
	var status string
	fs.Var(cmdutil.EnumList(&status, FileStatuses()), "status", "only files in processing status `S[,S]` (comma-separated, any case): "+strings.Join(FileStatuses(), ", "))
	_ = c.RegisterFlagCompletionFunc("status", cmdutil.Fixed(FileStatuses()))
	fs.StringVar(&o.Query.Name, "name", "", "only files whose name contains `S`")
	if runF == nil {
		runF = RunFiles
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		o.ProjectID, o.Query.Statuses = args[0], cmdutil.SplitList(status)
		return runF(ctx, o)
	})
	return c
}

// RunFiles lists a project's files page by page as they arrive.
func RunFiles(ctx context.Context, o *FilesOptions) int {
	c, err := o.Client()
	if err != nil {
		return o.IO.Fail(err)
	}
	cells := o.IO.Cells()
	_, err = printer.List(ctx, o.IO, c.ProjectFiles(o.ProjectID, o.Query), printer.Listing[api.ProjectFile]{
		Headers: []string{"NAME", "ID", "STATUS", "SIZE", "UPLOADED (UTC)", "TYPE"},
		Cells: func(f *api.ProjectFile) []string {
			return []string{f.Name, f.ID, filestatus.Word(f.ProcessingStatus), cells.Size(f.Size), cells.APITime(f.UploadedAt), f.ContentType}
		},
		CSVHeaders: records.FileHeader(),
		CSVCells:   records.File,
	})
	return o.IO.Done(err)
}

// FileStatuses are the processing statuses --status takes (api.Status*).
func FileStatuses() []string {
	var out []string
	for _, s := range []api.Status{api.StatusUploaded, api.StatusProcessing, api.StatusReadyToQuery,
		api.StatusReadyToReview, api.StatusRecoverableFailure, api.StatusUnrecoverableFailure} {
		out = append(out, strings.ToLower(string(s)))
	}
	return out
}
