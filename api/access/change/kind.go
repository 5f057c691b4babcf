package change

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// The service's audit types of the sharing endpoints (the simulator's
// names: none is documented). The receipt's evidence looks for both.
const (
	AuditUpdate = "api:vault_update_project_users"
	AuditRemove = "api:vault_remove_project_users"
)

// KindName is the access job's kind in the write-job journal.
const KindName = "access"

// params is what an item keeps of its row: enough to send it, check it
// after a kill and undo it.
type params struct {
	ProjectID   string `json:"project_id"`
	ProjectName string `json:"project_name"`
	Email       string `json:"email"`
	To          string `json:"to"`     // the direct level after ("" none)
	Direct      string `json:"direct"` // the direct level the plan read before
}

func paramsOf(it writejob.Item) (params, error) {
	var p params
	if err := json.Unmarshal([]byte(it.Params), &p); err != nil {
		return p, fmt.Errorf("item %d: %w", it.Seq, err)
	}
	return p, nil
}

// Items are the plan's changes as write-job items: one send of a
// project's POST rows (add, raise, lower), project by project, then one
// of its DELETE rows: every grant (a new manager above all) goes before
// any removal, so a stop between them never leaves a project with fewer
// managers than the plan meant.
func Items(p *Plan) ([]writejob.Item, error) {
	var out []writejob.Item
	send := 0
	for _, del := range []bool{false, true} {
		for _, s := range p.Projects {
			opened := false
			for _, r := range p.Rows {
				if r.ProjectID != s.ID || !Changes(r.Action) || (r.Action == Remove) != del {
					continue
				}
				if !opened {
					send++
					opened = true
				}
				b, err := json.Marshal(params{ProjectID: r.ProjectID, ProjectName: r.ProjectName, Email: r.Email, To: r.To, Direct: r.Direct})
				if err != nil {
					return nil, err
				}
				out = append(out, writejob.Item{Send: send, Target: r.Target(), Label: r.Label(), Action: r.Action, Params: string(b)})
			}
		}
	}
	return out, nil
}

// Kind is the access job's writejob.Kind over the service.
type Kind struct{ API API }

// Name is the kind's name in the journal.
func (Kind) Name() string { return KindName }

// AuditType is the entry type of a POST; a receipt also looks for
// AuditRemove (Evidence types).
func (Kind) AuditType() string { return AuditUpdate }

// Send sends one send's items: one project, all POST or all DELETE.
func (k Kind) Send(ctx context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	ps := make([]params, len(items))
	for i, it := range items {
		p, err := paramsOf(it)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", api.ErrNotSent, err)
		}
		ps[i] = p
	}
	pid := ps[0].ProjectID
	var ch *api.UsersChange
	var err error
	if items[0].Action == Remove {
		emails := make([]string, len(ps))
		for i, p := range ps {
			emails[i] = p.Email
		}
		ch, err = k.API.RemoveProjectUsers(ctx, pid, emails)
	} else {
		users := make([]api.UserAccess, len(ps))
		for i, p := range ps {
			users[i] = api.UserAccess{Email: p.Email, AccessLevel: p.To}
		}
		ch, err = k.API.UpdateProjectUsers(ctx, pid, users)
	}
	if err != nil {
		if refused(err) {
			// answered, and refused whole: nothing changed
			out := make([]writejob.Answer, len(items))
			for i, it := range items {
				out[i] = writejob.Answer{Target: it.Target, State: writejob.Failed, Outcome: "refused", Detail: err.Error()}
			}
			return out, nil
		}
		return nil, err
	}
	return answers(pid, ps, ch), nil
}

// refused says the service answered and changed nothing: a 400, 403 or
// 404 of the whole request.
func refused(err error) bool {
	var ae *api.Error
	if !errors.As(err, &ae) {
		return false
	}
	return ae.Status == 400 || ae.Status == 403 || ae.Status == 404
}

// answers maps the service's lists to one answer per item, by target;
// the api already refused an answer naming a user twice or not asked.
func answers(pid string, ps []params, ch *api.UsersChange) []writejob.Answer {
	target := func(email string) string { return pid + "|" + key(email) }
	direct := map[string]string{}
	for _, p := range ps {
		direct[key(p.Email)] = p.Direct
	}
	var out []writejob.Answer
	for _, a := range ch.Added {
		out = append(out, writejob.Answer{Target: target(a.Email), State: writejob.Done, Outcome: "added", Previous: ""})
	}
	for _, u := range ch.Updated {
		out = append(out, writejob.Answer{Target: target(u.Email), State: writejob.Done, Outcome: "updated", Previous: u.PreviousAccessLevel})
	}
	for _, e := range ch.Removed {
		// DELETE says nothing of the level it removed: the plan read it
		// just before, and the journal kept it before sending
		out = append(out, writejob.Answer{Target: target(e), State: writejob.Done, Outcome: "removed", Previous: direct[key(e)]})
	}
	for _, f := range ch.Failed {
		out = append(out, writejob.Answer{Target: target(f.Email), State: writejob.Failed, Outcome: "failed", Detail: f.Reason})
	}
	for _, e := range ch.Missing {
		out = append(out, writejob.Answer{Target: target(e), State: writejob.Unknown, Detail: "the answer does not name this user"})
	}
	return out
}

// Check reads what the project's direct shares are now: the change took
// effect (Done), did not (Planned: sent again), or something else is
// there (Unknown, named).
func (k Kind) Check(ctx context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	p0, err := paramsOf(items[0])
	if err != nil {
		return nil, err
	}
	pr, err := k.project(ctx, p0.ProjectID, p0.ProjectName)
	if err != nil {
		return nil, err
	}
	out := make([]writejob.Answer, len(items))
	for i, it := range items {
		p, err := paramsOf(it)
		if err != nil {
			return nil, err
		}
		now := ""
		if pr != nil {
			now = pr.Direct[key(p.Email)].AccessLevel
		}
		a := writejob.Answer{Target: it.Target, Previous: p.Direct}
		switch {
		case pr == nil:
			a.State, a.Detail = writejob.Unknown, "the project is no longer listed"
		case now == p.To:
			a.State, a.Outcome = writejob.Done, outcomeOf(it.Action)
		case now == p.Direct:
			a.State = writejob.Planned
		default:
			a.State, a.Detail = writejob.Unknown, fmt.Sprintf("the direct share is now %s, neither %s before nor %s planned", show(now), show(p.Direct), show(p.To))
		}
		out[i] = a
	}
	return out, nil
}

func outcomeOf(action string) string {
	switch action {
	case Add:
		return "added"
	case Remove:
		return "removed"
	}
	return "updated"
}

func show(level string) string {
	if level == "" {
		return "none"
	}
	return level
}

// project reads one project's direct shares from the listing (by name
// first, the whole listing when the name no longer finds it); nil when it
// is not listed.
func (k Kind) project(ctx context.Context, id, name string) (*Project, error) {
	var found *Project
	read := func(q api.ProjectQuery) error {
		_, err := k.API.Projects(q).Each(ctx, func(p *api.Project, _ api.RawItem) error {
			if p.ID != id {
				return nil
			}
			pr, err := fromListing(p)
			found = pr
			return err
		}, nil)
		return err
	}
	if err := read(api.ProjectQuery{Name: name}); err != nil {
		return nil, err
	}
	if found == nil {
		if err := read(api.ProjectQuery{}); err != nil {
			return nil, err
		}
	}
	return found, nil
}

// Undo plans the items that put back what the job's done items changed,
// each project's direct shares read now: an item whose share is no longer
// what the job left (a colleague changed it since) is refused by name and
// left alone.
func (k Kind) Undo(ctx context.Context, job store.WriteJob, done []writejob.Item) (*writejob.UndoPlan, error) {
	projects, _, err := Listing(ctx, k.API)
	if err != nil {
		return nil, err
	}
	up := &writejob.UndoPlan{}
	type undo struct {
		it writejob.Item
		p  params
	}
	var posts, dels []undo
	for _, it := range done {
		p, err := paramsOf(it)
		if err != nil {
			return nil, err
		}
		pr := projects[p.ProjectID]
		if pr == nil {
			up.Refused = append(up.Refused, writejob.Refusal{Target: it.Target, Label: it.Label, Why: "the project is no longer listed"})
			continue
		}
		now := pr.Direct[key(p.Email)].AccessLevel
		if now != p.To {
			up.Refused = append(up.Refused, writejob.Refusal{Target: it.Target, Label: it.Label,
				Why: fmt.Sprintf("changed since: the direct share is %s now, where job %d left %s; left alone", show(now), job.ID, show(p.To))})
			continue
		}
		back := params{ProjectID: p.ProjectID, ProjectName: p.ProjectName, Email: p.Email, To: it.Previous, Direct: now}
		if back.To == "" {
			dels = append(dels, undo{it, back})
		} else {
			posts = append(posts, undo{it, back})
		}
	}
	// one send per project and method, in the job's order
	send := 0
	for _, group := range [][]undo{posts, dels} {
		last := ""
		for _, u := range group {
			if u.p.ProjectID != last {
				send++
				last = u.p.ProjectID
			}
			b, err := json.Marshal(u.p)
			if err != nil {
				return nil, err
			}
			up.Items = append(up.Items, writejob.Item{Send: send, Target: u.it.Target, Label: u.it.Label, Action: undoAction(u.p), Params: string(b)})
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "undo of access job %d: %d to put back", job.ID, len(up.Items))
	for _, it := range up.Items {
		p, _ := paramsOf(it)
		fmt.Fprintf(&b, "\n  %-6s %s: %s to %s", it.Action, it.Label, show(p.Direct), show(p.To))
	}
	for _, r := range up.Refused {
		fmt.Fprintf(&b, "\n  left   %s: %s", r.Label, r.Why)
	}
	up.Text = b.String()
	return up, nil
}

func undoAction(p params) string {
	switch {
	case p.To == "":
		return Remove
	case p.Direct == "":
		return Add
	case p.To == api.AccessManage:
		return Raise
	}
	return Lower
}
