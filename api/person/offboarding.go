package person

import (
	"fmt"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/purge"
)

// Task is one line of the offboarding checklist: something an admin must
// act on before the person leaves.
type Task struct {
	Kind   string // sole-manage, own-project, matter-in-use, in-recycle-bin
	Name   string // the project's, the matter's
	ID     string // the project's, the matter's, the bin entry's
	Action string // what to do, for a person
	Detail string
}

// ChangeAccess is what the checklist states about access: vaultdeck
// removes direct shares (public API facts §4.9); inherited access and the
// owner are changed in the service's web app.
const ChangeAccess = "vaultdeck removes direct shares: `vaultdeck person EMAIL --offboarding --plan --out plan.json` " +
	"(with --new-manager EMAIL where nobody else would manage), then `vaultdeck access apply plan.json`; undo with `vaultdeck access undo JOB`. " +
	"Inherited workspace, group or space access stays and is changed in the project's sharing settings in the web app, " +
	"and the project owner cannot be removed through the API."

// Checklist lists what an admin must act on: the projects where the
// person is the only one with MANAGE, every project they reach and how
// (a direct share to remove, inherited access to change in the web app,
// a project they own), the projects they created, their matters in use
// (live, with users or events), their deletions still in the bin
// (restorable until the purge) and their logins from a new address.
// Parts the report is missing give nothing here: the caller says they are
// missing.
func Checklist(r *Report) (out []Task) {
	defer func() { out = append(out, newAddresses(r)...) }()
	for _, g := range r.Reach.SoleManage {
		out = append(out, Task{Kind: "sole-manage", Name: g.ProjectName, ID: g.ProjectID,
			Action: "give MANAGE to someone who stays", Detail: "nobody else has MANAGE on it (" + r.Reach.From + ")"})
	}
	for _, g := range r.Reach.Grants {
		t := Task{Kind: "access", Name: g.ProjectName, ID: g.ProjectID}
		switch r.Reach.How[g.ProjectID] {
		case HowDirect:
			t.Action, t.Detail = "remove the direct share (--plan)", g.AccessLevel+", direct"
		case HowInherited:
			t.Action, t.Detail = "change the workspace, group or space share in the web app, or leave it", g.AccessLevel+", inherited"
		case HowOwner:
			t.Action, t.Detail = "name a new owner in the web app", g.AccessLevel+", owner"
		default:
			t.Action, t.Detail = "check how they reach it (the projects listing was not read)", g.AccessLevel
		}
		out = append(out, t)
	}
	for _, p := range r.Created.Projects {
		out = append(out, Task{Kind: "own-project", Name: p.Name, ID: p.ID,
			Action: "confirm who owns it from now on", Detail: fmt.Sprintf("created %s, %s", p.CreatedAt.UTC().Format("2006-01-02"), plural.Count(p.FilesCount, "file"))})
	}
	for _, m := range r.Created.Matters {
		if m.Deleted() || (m.UserCount == 0 && m.TotalEvents == 0) {
			continue
		}
		out = append(out, Task{Kind: "matter-in-use", Name: m.Name, ID: m.ID,
			Action: "name who answers for it", Detail: plural.Count(m.UserCount, "user") + ", " + plural.Count(m.TotalEvents, "event")})
	}
	for _, e := range r.Deleted.Entries {
		left, _ := purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, r.At)
		detail := "no purge time"
		if at := e.RecycleBinPurgedScheduledAt.Time; !at.IsZero() {
			detail = fmt.Sprintf("purged at %s UTC (%s)", at.UTC().Format("2006-01-02 15:04"), left)
		}
		out = append(out, Task{Kind: "in-recycle-bin", Name: e.VaultProject.Name, ID: e.ID,
			Action: "restore it or let it be purged", Detail: detail})
	}
	return out
}

// newAddresses are the person's logins from an address new to them: a
// login no one expected is checked before access is withdrawn.
func newAddresses(r *Report) []Task {
	var out []Task
	for _, a := range r.Activity.Addresses {
		if a.New {
			out = append(out, Task{Kind: "new-address", Name: a.IP, ID: a.IP, Action: "confirm the login was theirs",
				Detail: fmt.Sprintf("first seen %s UTC, %s", a.First.UTC().Format("2006-01-02 15:04"), plural.Count(a.Count, "entry"))})
		}
	}
	return out
}
