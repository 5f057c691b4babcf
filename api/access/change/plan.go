package change

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Want is one wish of a plan's source: the person's direct access to the
// project at Level, or (Level "") no direct access.
type Want struct {
	ProjectID string `json:"project_id"`
	Email     string `json:"email"`
	Level     string `json:"level"` // MANAGE, READ, or "" for none
}

// What a row of a plan does.
const (
	Add       = "add"       // a direct share where there was none
	Raise     = "raise"     // READ to MANAGE
	Lower     = "lower"     // MANAGE to READ
	Remove    = "remove"    // the direct share goes (inherited access stays)
	Nothing   = "nothing"   // already so
	Inherited = "inherited" // the access is inherited: not changed here
	Owner     = "owner"     // the project's owner: MANAGE, never changed
)

// Changes says whether the action sends anything.
func Changes(action string) bool {
	return action == Add || action == Raise || action == Lower || action == Remove
}

// Row is one person on one project in a plan: what they have now (direct
// and in all), what the plan does, and why when it does nothing.
type Row struct {
	ProjectID   string `json:"project_id"`
	ProjectName string `json:"project_name"`
	Email       string `json:"email"`
	Action      string `json:"action"`
	// Direct is the direct share's level now ("" none), To the one after.
	Direct string `json:"direct"`
	To     string `json:"to"`
	// Access is the level the person has now in all ("" none).
	Access string `json:"access"`
	Note   string `json:"note,omitempty"`
}

// Label is the row as a person names it.
func (r Row) Label() string { return r.Email + " on " + r.ProjectName }

// Target is what the write job names the row's change by.
func (r Row) Target() string { return r.ProjectID + "|" + key(r.Email) }

// Stamp is a touched project's project_updated_at when the plan read it:
// apply re-checks a plan whose projects moved.
type Stamp struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	UpdatedAt string `json:"updated_at"`
}

// PlanVersion is the plan file's format.
const PlanVersion = 1

// Plan is a plan as a file keeps it: where it came from, what it wants,
// what the service showed, each row, and what it refuses.
type Plan struct {
	Version int       `json:"version"`
	Source  string    `json:"source"` // "--remove x@y", "--set file.csv", ...
	MadeAt  time.Time `json:"made_at"`
	BaseURL string    `json:"base_url"`
	// Leaving: the people the plan withdraws (--remove); their MANAGE
	// does not count as a project's manager.
	Leaving  []string `json:"leaving,omitempty"`
	Wants    []Want   `json:"wants"`
	Projects []Stamp  `json:"projects"`
	Rows     []Row    `json:"rows"`
	// Refused names each project the plan would leave without a manager:
	// a plan that refuses anything is never applied.
	Refused []string `json:"refused"`
}

// Count is how many rows change something.
func (p *Plan) Count() int {
	n := 0
	for _, r := range p.Rows {
		if Changes(r.Action) {
			n++
		}
	}
	return n
}

// Make builds the plan of wants against projects as the service shows them
// now (each touched project's users read). Rows are in project name order,
// then e-mail; a want of a project not listed is an error.
func Make(source string, now time.Time, projects map[string]*Project, wants []Want, leaving []string) (*Plan, error) {
	p := &Plan{Version: PlanVersion, Source: source, MadeAt: now.UTC(), Leaving: leaving, Wants: wants, Refused: []string{}}
	seen := map[string]int{}
	for _, w := range wants {
		pr := projects[w.ProjectID]
		if pr == nil {
			return nil, fmt.Errorf("project %s is not in the listing (deleted, or not visible to this token)", w.ProjectID)
		}
		if pr.Users == nil {
			return nil, fmt.Errorf("project %s: its users were not read", w.ProjectID)
		}
		if w.Level != "" && !api.KnownLevel(w.Level) {
			return nil, fmt.Errorf("%s on %s: the level %q is not MANAGE, READ or none", w.Email, pr.Name, w.Level)
		}
		r := row(pr, w)
		k := r.Target()
		if i, ok := seen[k]; ok {
			if p.Rows[i].To != r.To || p.Rows[i].Action != r.Action {
				return nil, fmt.Errorf("%s is wanted twice with different access on %s", w.Email, pr.Name)
			}
			continue
		}
		seen[k] = len(p.Rows)
		p.Rows = append(p.Rows, r)
	}
	slices.SortStableFunc(p.Rows, func(a, b Row) int {
		return cmp.Or(strings.Compare(a.ProjectName, b.ProjectName), strings.Compare(a.ProjectID, b.ProjectID), strings.Compare(key(a.Email), key(b.Email)))
	})
	touched := map[string]bool{}
	for _, r := range p.Rows {
		if !touched[r.ProjectID] {
			touched[r.ProjectID] = true
			pr := projects[r.ProjectID]
			p.Projects = append(p.Projects, Stamp{ID: pr.ID, Name: pr.Name, UpdatedAt: pr.UpdatedAt})
			if orphaned(pr, p.Rows, leaving) {
				p.Refused = append(p.Refused, pr.Name+" ("+pr.ID+")")
			}
		}
	}
	return p, nil
}

// row decides what a want does to one person on one project.
func row(pr *Project, w Want) Row {
	k := key(w.Email)
	r := Row{ProjectID: pr.ID, ProjectName: pr.Name, Email: strings.TrimSpace(w.Email), To: w.Level}
	if d, ok := pr.Direct[k]; ok {
		r.Direct = d.AccessLevel
		r.Email = d.Email
	}
	if u, ok := pr.Users[k]; ok {
		r.Access = u.AccessLevel
		r.Email = strings.TrimSpace(u.Email)
	}
	switch {
	case key(pr.Owner) == k:
		r.Action, r.To = Owner, r.Direct
		r.Note = "the owner has MANAGE and cannot be changed through the API: a new owner is named in the web app"
	case w.Level == "" && r.Direct == "" && r.Access != "":
		r.Action = Inherited
		r.Note = "inherited, " + where(pr) + ": not changed here"
	case w.Level == "" && r.Direct == "":
		r.Action = Nothing
		r.Note = "no access to remove"
	case w.Level == "":
		r.Action = Remove
		if r.Access != "" && (pr.Workspace != "" || r.Access != r.Direct) {
			r.Note = "inherited access may stay: " + where(pr)
		}
	case r.Direct == w.Level:
		r.Action = Nothing
	case r.Direct == "":
		r.Action = Add
		if r.Access != "" {
			r.Note = "already " + r.Access + ", inherited (" + where(pr) + ")"
		}
	case w.Level == api.AccessManage:
		r.Action = Raise
	default:
		r.Action = Lower
		if r.Access == api.AccessManage && pr.Workspace == api.AccessManage {
			r.Note = "still MANAGE through the workspace share"
		}
	}
	return r
}

// where says where inherited access to the project comes from, as far as
// the listing tells (group and space shares are not in it).
func where(pr *Project) string {
	if pr.Workspace != "" {
		return "the project is shared with the whole workspace (" + pr.Workspace + "), changed in its sharing settings in the web app"
	}
	return "through a group or space share, changed in the project's sharing settings in the web app"
}

// orphaned says whether the project has someone with MANAGE now and
// would have nobody after the rows (the leaving people's MANAGE does not
// count, nor a MANAGE whose direct share the rows remove or lower).
func orphaned(pr *Project, rows []Row, leaving []string) bool {
	gone := map[string]bool{}
	for _, e := range leaving {
		gone[key(e)] = true
	}
	after := map[string]string{}
	for k, u := range pr.Users {
		after[k] = u.AccessLevel
	}
	if pr.Owner != "" {
		after[key(pr.Owner)] = api.AccessManage
	}
	before := 0
	for _, l := range after {
		if l == api.AccessManage {
			before++
		}
	}
	for _, r := range rows {
		if r.ProjectID != pr.ID || !Changes(r.Action) {
			continue
		}
		k := key(r.Email)
		switch {
		case r.To == api.AccessManage:
			after[k] = api.AccessManage
		case r.Direct == api.AccessManage:
			// Its MANAGE came (at least) from the share going: what is
			// inherited cannot be told, so it does not count.
			after[k] = r.To
		}
	}
	managers := 0
	for k, l := range after {
		if l == api.AccessManage && !gone[k] {
			managers++
		}
	}
	return before > 0 && managers == 0
}
