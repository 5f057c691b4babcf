// Package vaultcmd is the vault's listings: `vaultdeck projects`, `users
// PROJECT_ID` and `files PROJECT_ID`.
package vaultcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
)

// ProjectsOptions are what `projects` was asked and what it works with.
type ProjectsOptions struct {
	IO     *printer.Printer
	Client func() (*api.Client, error)
	Name   string // only projects whose name contains it
}

// NewCmdProjects is the command; runF, when set, runs instead of
// RunProjects (tests).
func NewCmdProjects(f *factory.Factory, runF func(context.Context, *ProjectsOptions) int) *cobra.Command {
	o := &ProjectsOptions{IO: f.IO, Client: f.Client}
	c := &cobra.Command{Use: "projects", Short: "list the workspace's vault projects", Args: cmdutil.NoArgs}
	c.Flags().StringVar(&o.Name, "name", "", "only projects whose name contains `S` (case-insensitive)")
	if runF == nil {
		runF = RunProjects
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return runF(ctx, o) })
	return c
}

// RunProjects lists the projects page by page as they arrive.
func RunProjects(ctx context.Context, o *ProjectsOptions) int {
	c, err := o.Client()
	if err != nil {
		return o.IO.Fail(err)
	}
	cells := o.IO.Cells()
	_, err = printer.List(ctx, o.IO, c.Projects(api.ProjectQuery{Name: o.Name}), printer.Listing[api.Project]{
		Headers: []string{"NAME", "ID", "FILES", "SIZE", "UPDATED (UTC)", "CREATOR", "KB"},
		Cells: func(p *api.Project) []string {
			return []string{p.Name, p.ID, p.FilesCount.String(), cells.Size(p.SizeBytes), cells.APITime(p.UpdatedAt), p.CreatorEmail, yesNo(p.IsKnowledgeBaseProject)}
		},
		// The CSV is the projects' record, the console's `e` too
		// (ui/csvsafe/records).
		CSVHeaders: records.ProjectHeader(),
		CSVCells:   records.Project,
	})
	return o.IO.Done(err)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
