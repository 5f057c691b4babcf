package accesscmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// PlanOptions are `access plan`'s: one source of wants, and where the plan
// goes.
type PlanOptions struct {
	Remove     string // every direct share of this person
	NewManager string // with Remove: MANAGE for them where nobody else would manage
	CopyFrom   string // what this person reaches directly ...
	CopyTo     string // ... given to this one
	Set        string // a CSV of project, e-mail, level rows
	Revert     int64  // the snapshot to put back
	Out        string // write the plan as JSON here
}

// source says which source the flags name, or why they name none or two.
func (po *PlanOptions) source() (string, error) {
	var named []string
	if po.Remove != "" {
		named = append(named, "--remove "+po.Remove)
	}
	if po.CopyFrom != "" || po.CopyTo != "" {
		if po.CopyFrom == "" || po.CopyTo == "" {
			return "", errors.New("--copy FROM goes with --to EMAIL")
		}
		named = append(named, "--copy "+po.CopyFrom+" --to "+po.CopyTo)
	}
	if po.Set != "" {
		named = append(named, "--set "+filepath.Base(po.Set))
	}
	if po.Revert != 0 {
		named = append(named, fmt.Sprintf("--revert %d", po.Revert))
	}
	if po.NewManager != "" && po.Remove == "" {
		return "", errors.New("--new-manager goes with --remove")
	}
	if len(named) != 1 {
		return "", errors.New("name one of --remove EMAIL, --copy FROM --to EMAIL, --set FILE.csv or --revert SNAPSHOT")
	}
	return named[0], nil
}

// RunPlan makes a plan against the service now and shows it; --out keeps
// it for `access apply`. Nothing is changed: the plan is the dry run. A
// plan that would leave a project without MANAGE is shown, refused (exit
// 1) and not written.
func RunPlan(ctx context.Context, o *Options) int {
	p := o.IO
	src, err := o.PlanOpts.source()
	if err != nil {
		return p.Usage("%s", err.Error())
	}
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	plan, err := o.makePlan(ctx, c, src)
	if err != nil {
		return p.Fail(err)
	}
	plan.BaseURL = c.Base()
	code := showPlan(p, plan)
	if len(plan.Refused) > 0 {
		p.Note("refused: it would leave %s without MANAGE: %s; name who manages %s from now on (--new-manager EMAIL), then plan again; nothing was written",
			plural.Count(len(plan.Refused), "project"), sanitize.Line(strings.Join(plan.Refused, "; ")), plural.Verb(len(plan.Refused), "it", "them"))
		return max(code, printer.ExitError)
	}
	if o.PlanOpts.Out != "" {
		if err := writePlan(o.PlanOpts.Out, plan); err != nil {
			return p.Fail(err)
		}
		p.Note("the plan is in %s: `vaultdeck access apply %s` carries it out", o.PlanOpts.Out, o.PlanOpts.Out)
	}
	return code
}

// makePlan reads the listing, gathers the source's wants, reads the users
// of every project they touch and makes the plan.
func (o *Options) makePlan(ctx context.Context, c *api.Client, src string) (*change.Plan, error) {
	po := o.PlanOpts
	projects, order, err := change.Listing(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("reading the projects: %w", err)
	}
	var wants []change.Want
	var leaving []string
	switch {
	case po.Remove != "":
		leaving = []string{po.Remove}
		wants = change.RemoveWants(projects, order, po.Remove, o.reached(po.Remove))
		if len(wants) == 0 {
			// a typo would read as "nothing to do"
			return nil, fmt.Errorf("%s has no direct share, owns no project and is in no snapshot: check the address (`vaultdeck access people` lists who reaches what)", po.Remove)
		}
	case po.CopyFrom != "":
		wants = change.CopyWants(projects, order, po.CopyFrom, po.CopyTo)
		if len(wants) == 0 {
			return nil, fmt.Errorf("%s has no direct share of any project: there is nothing to copy (inherited access is not copied)", po.CopyFrom)
		}
	case po.Set != "":
		data, err := localfile.Read(po.Set, localfile.AccessFile)
		if err != nil {
			return nil, err
		}
		if wants, err = change.CSVWants(data); err != nil {
			return nil, fmt.Errorf("%s: %w", po.Set, err)
		}
	case po.Revert != 0:
		if wants, err = o.revertWants(ctx, c, projects, po.Revert); err != nil {
			return nil, err
		}
	}
	if err := change.Read(ctx, c, projects, wants, o.readLine()); err != nil {
		return nil, err
	}
	plan, err := change.Make(src, o.now(), projects, wants, leaving)
	if err != nil || po.NewManager == "" || len(plan.Refused) == 0 {
		return plan, err
	}
	if err := o.knownManager(projects, po.Remove, po.NewManager); err != nil {
		return nil, err
	}
	wants = append(wants, change.ManagerWants(plan, po.NewManager)...)
	if err := change.Read(ctx, c, projects, wants, nil); err != nil {
		return nil, err
	}
	return change.Make(src, o.now(), projects, wants, leaving)
}

// knownManager refuses a new manager the plan cannot give MANAGE to: the
// person leaving, or an address neither the service's projects (their
// owners, direct shares and the users read now) nor the last snapshot
// name. The interface lists no workspace users, so this is the nearest
// check at plan time; without it the grant failed at apply (unknown user)
// after the removals were sent.
func (o *Options) knownManager(projects map[string]*change.Project, leaving, manager string) error {
	k := strings.ToLower(strings.TrimSpace(manager))
	if k == strings.ToLower(strings.TrimSpace(leaving)) {
		return fmt.Errorf("--new-manager %s is the person leaving: name who manages their projects from now on", manager)
	}
	for _, p := range projects {
		if strings.EqualFold(p.Owner, k) {
			return nil
		}
		if _, ok := p.Direct[k]; ok {
			return nil
		}
		if _, ok := p.Users[k]; ok {
			return nil
		}
	}
	if len(o.reached(manager)) > 0 {
		return nil
	}
	return fmt.Errorf("--new-manager %s is not a user the service shows on any project, nor in the last access snapshot: check the address (`vaultdeck access people` lists who reaches what); nothing was written", manager)
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// readLine says on stderr how far the reading of projects' users is.
func (o *Options) readLine() func(done, all int) {
	return func(done, all int) {
		if o.IO.StderrIsTerminal() {
			fmt.Fprintf(o.IO.Err(), "\rreading the users of %d of %s", done, plural.Count(all, "project"))
			if done == all {
				fmt.Fprintln(o.IO.Err())
			}
		}
	}
}

// reached is the projects the last snapshot says the person reaches (none
// without a snapshot: the plan then knows their direct shares and owned
// projects only).
func (o *Options) reached(email string) []string {
	st, profile, err := o.Journal()
	if err != nil {
		return nil
	}
	defer st.Close()
	_, grants, err := access.Lookup(st, profile, 0, email)
	if err != nil {
		return nil
	}
	ids := make([]string, len(grants))
	for i, g := range grants {
		ids[i] = g.ProjectID
	}
	return ids
}

// revertWants reads the snapshot and the users of every project whose
// project_updated_at moved since it (sharing changes move it).
func (o *Options) revertWants(ctx context.Context, c *api.Client, projects map[string]*change.Project, id int64) ([]change.Want, error) {
	st, profile, err := o.Journal()
	if err != nil {
		return nil, err
	}
	defer st.Close()
	sn, err := access.Pick(st, profile, id)
	if err != nil {
		return nil, err
	}
	then, err := st.AccessProjects(sn.ID)
	if err != nil {
		return nil, err
	}
	grants, err := st.AccessGrants(sn.ID, store.AccessGrantFilter{})
	if err != nil {
		return nil, err
	}
	var moved []change.Want
	var ids []string
	for _, tp := range then {
		p := projects[tp.ID]
		if p == nil {
			continue // deleted since: nothing to put back on it
		}
		if tp.UpdatedAt != "" && sameTime(tp.UpdatedAt, p.UpdatedAt) {
			continue
		}
		ids = append(ids, tp.ID)
		moved = append(moved, change.Want{ProjectID: tp.ID})
	}
	if err := change.Read(ctx, c, projects, moved, o.readLine()); err != nil {
		return nil, err
	}
	return change.RevertWants(projects, ids, grants), nil
}

// sameTime compares a snapshot's normalised time with the listing's raw
// one.
func sameTime(snap, raw string) bool {
	t, err := api.ParseTime(raw)
	if err != nil {
		return snap == raw
	}
	return snap == t.UTC().Format(time.RFC3339Nano)
}

// writePlan writes the plan file whole (a temporary file renamed into
// place), readable by its owner only: it names people and their access.
func writePlan(path string, plan *change.Plan) error {
	b, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".vaultdeck-plan-*")
	if err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the plan: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the plan: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the plan: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

// readPlan reads a plan file.
func readPlan(path string) (*change.Plan, error) {
	b, err := localfile.Read(path, localfile.AccessFile)
	if err != nil {
		return nil, err
	}
	var plan change.Plan
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&plan); err != nil {
		return nil, fmt.Errorf("%s is not an access plan: %w", path, err)
	}
	if plan.Version != change.PlanVersion {
		return nil, fmt.Errorf("%s is an access plan of format %d; this vaultdeck reads format %d", path, plan.Version, change.PlanVersion)
	}
	return &plan, nil
}

// showPlan prints the plan: its rows as a table (CSV with --csv, the plan
// itself with --json), the count under it.
func showPlan(p *printer.Printer, plan *change.Plan) int {
	n := plan.Count()
	sends := 0
	if items, err := change.Items(plan); err == nil && len(items) > 0 {
		sends = items[len(items)-1].Send
	}
	summary := fmt.Sprintf("%s in %s (%s); %s", plural.Count(n, "change"), plural.Count(sends, "request"), plural.Count(len(plan.Projects), "project"), plan.Source)
	return p.Done(p.Show(printer.Result{
		JSON: func() (any, error) { return plan, nil },
		Table: func(row func([]string) error) error {
			if err := row([]string{"PROJECT", "EMAIL", "ACTION", "DIRECT", "TO", "ACCESS", "NOTE", "PROJECT ID"}); err != nil {
				return err
			}
			for _, r := range plan.Rows {
				if err := row([]string{sanitize.Line(r.ProjectName), sanitize.Line(r.Email), r.Action, none(r.Direct), none(r.To), none(r.Access), r.Note, r.ProjectID}); err != nil {
					return err
				}
			}
			return nil
		},
		Summary: summary,
	}))
}

// none is an absent level as a plan's table says it, which --set reads
// back (a spreadsheet would take "-" for a formula).
func none(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
