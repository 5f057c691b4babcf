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

// CannotChangeAccess is what the checklist states about itself: vaultdeck
// only reads access, so every change named here is done elsewhere. Where
// is the service's own (public API facts §4.9).
const CannotChangeAccess = "vaultdeck cannot change access: it only reads it. Change or remove access in the service itself: " +
	"a project's sharing in the web app, or the project users endpoint (POST or DELETE /api/v1/vault/projects/{id}/users, " +
	"with the Vault sharing permission). DELETE removes direct shares only: inherited workspace, group or space access stays, " +
	"and the project owner cannot be removed, so a sole-MANAGE project needs a new manager first."

// Checklist lists what an admin must act on: the projects where the
// person is the only one with MANAGE, the projects they created, their
// matters in use (live, with users or events) and their deletions still
// in the bin (restorable until the purge). Parts the report is missing
// give nothing here: the caller says they are missing.
func Checklist(r *Report) []Task {
	var out []Task
	for _, g := range r.Reach.SoleManage {
		out = append(out, Task{Kind: "sole-manage", Name: g.ProjectName, ID: g.ProjectID,
			Action: "give MANAGE to someone who stays", Detail: "nobody else has MANAGE on it (" + r.Reach.From + ")"})
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
