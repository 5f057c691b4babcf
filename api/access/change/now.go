// Package change is the access review's other half: changing who reaches
// a project, as a plan a person reads (and a reviewer approves) and a
// journaled write job that carries it out, with a receipt and an undo.
//
// A plan starts from what someone wants (every direct share of a leaver
// removed, a colleague's direct access copied, the rows of a CSV, a
// snapshot put back) and is always made against what the service shows
// now: the listing's sharing.user_shares (direct shares, which DELETE can
// remove) and each touched project's users (the access a person has,
// inherited included). The job is an api/writejob kind ("access"): every
// send is one POST or DELETE of one project's users.
package change

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
)

// API is what plans and the job ask of the service. *api.Client satisfies it.
type API interface {
	Projects(q api.ProjectQuery) api.Listing[api.Project]
	ProjectUsers(projectID string) api.Listing[api.ProjectUser]
	UpdateProjectUsers(ctx context.Context, projectID string, users []api.UserAccess) (*api.UsersChange, error)
	RemoveProjectUsers(ctx context.Context, projectID string, emails []string) (*api.UsersChange, error)
}

// Project is one project as the service shows it now: from the listing,
// its owner, direct shares and workspace share; from its users, the
// access each person has (Users is nil until read).
type Project struct {
	ID, Name  string
	Owner     string // creator_email: always MANAGE, never changed here
	UpdatedAt string // project_updated_at as sent: a change of sharing moves it
	// Direct: the direct shares by lower-case e-mail, at the users
	// endpoint's levels.
	Direct map[string]api.DirectShare
	// Workspace is the level of a share with the whole workspace ("" none):
	// everyone reaches the project at least so, inherited.
	Workspace string
	// Users: everyone with access now, inherited included, by lower-case
	// e-mail (nil: not read).
	Users map[string]api.ProjectUser
}

func key(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

// Listing reads every project of the listing with its direct shares, by
// ID. A share list the interface does not name is an error: nothing could
// tell direct from inherited on that project.
func Listing(ctx context.Context, c API) (map[string]*Project, []string, error) {
	out := map[string]*Project{}
	var order []string
	_, err := c.Projects(api.ProjectQuery{}).Each(ctx, func(p *api.Project, _ api.RawItem) error {
		pr, err := fromListing(p)
		if err != nil {
			return err
		}
		if _, dup := out[pr.ID]; !dup {
			order = append(order, pr.ID)
		}
		out[pr.ID] = pr
		return nil
	}, nil)
	return out, order, err
}

func fromListing(p *api.Project) (*Project, error) {
	pr := &Project{ID: p.ID, Name: p.Name, Owner: strings.TrimSpace(p.CreatorEmail), UpdatedAt: p.ProjectUpdatedAt.Raw, Direct: map[string]api.DirectShare{}}
	if pr.UpdatedAt == "" && !p.ProjectUpdatedAt.IsZero() {
		pr.UpdatedAt = p.ProjectUpdatedAt.Time.UTC().Format("2006-01-02T15:04:05.000000")
	}
	shares, err := p.Sharing.Direct()
	if err != nil {
		return nil, fmt.Errorf("project %s: %w", p.ID, err)
	}
	for _, s := range shares {
		pr.Direct[key(s.Email)] = s
	}
	pr.Workspace = workspaceLevel(p.Sharing)
	return pr, nil
}

// workspaceLevel reads the highest level of the project's workspace
// shares ("" when none or unreadable: then nothing is said of it).
func workspaceLevel(s *api.Sharing) string {
	if s == nil || len(s.WorkspaceShares) == 0 {
		return ""
	}
	var ws []struct {
		Level string `json:"permission_level"`
	}
	if err := json.Unmarshal(s.WorkspaceShares, &ws); err != nil {
		return ""
	}
	best := ""
	for _, w := range ws {
		switch w.Level {
		case "EDIT":
			best = api.AccessManage
		case "VIEW":
			if best == "" {
				best = api.AccessRead
			}
		}
	}
	return best
}

// ReadUsers reads the project's users now. A person listed twice keeps
// the higher level (what they can do); a level the interface does not
// name is an error.
func ReadUsers(ctx context.Context, c API, p *Project) error {
	users, _, err := c.ProjectUsers(p.ID).Collect(ctx)
	if err != nil {
		return fmt.Errorf("reading the users of %s: %w", p.ID, err)
	}
	p.Users = map[string]api.ProjectUser{}
	for _, u := range users {
		if !api.KnownLevel(u.AccessLevel) {
			return fmt.Errorf("the users of %s give %s the level %q, which the interface does not name", p.ID, u.Email, u.AccessLevel)
		}
		k := key(u.Email)
		if old, ok := p.Users[k]; ok && old.AccessLevel == api.AccessManage {
			continue
		}
		p.Users[k] = u
	}
	return nil
}
