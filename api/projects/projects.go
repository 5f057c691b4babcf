// Package projects holds the jobs on one project that more than one place
// needs: finding it by ID (the service has no "get project" call) and
// deleting it, which ends only once the project is in the recycle bin. The
// console's views and the command line call them; they draw the outcome.
package projects

import (
	"context"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
)

// Lister is the listing Find walks; *api.Client has it.
type Lister interface {
	ProjectsPage(ctx context.Context, q api.ProjectQuery) (*api.ProjectPage, error)
}

// Find walks the project listing (100 a page) for the project with id; it
// is nil when no project of the workspace has it. Pages opened with an ID
// alone (":project", ":upload") use it to name what they are about.
func Find(ctx context.Context, l Lister, id string) (*api.Project, error) {
	g := api.NewProjectPageGuard() // a listing that repeats itself ends, not loops
	for n := 1; ; n++ {
		pg, err := l.ProjectsPage(ctx, api.ProjectQuery{Page: n, PerPage: api.MaxPerPage})
		if err == nil {
			err = g.Within(n, len(pg.Projects), pg.Pagination)
		}
		var fresh []api.Project
		if err == nil {
			fresh, err = api.Fresh(g, n, pg.Projects, func(p *api.Project) string { return p.ID })
		}
		if err != nil {
			return nil, err
		}
		for i := range fresh {
			if strings.EqualFold(fresh[i].ID, id) { // a UUID in either case names the same project
				return &fresh[i], nil
			}
		}
		if len(pg.Projects) == 0 || n >= int(pg.Pagination.TotalPages) {
			return nil, nil
		}
	}
}
