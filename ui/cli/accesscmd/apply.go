package accesscmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// ApplyOptions are `access apply`'s and `access undo`'s.
type ApplyOptions struct {
	Plan   string        // the plan file
	Job    int64         // undo, receipts: the job
	Yes    bool          // no typed confirmation
	Resume bool          // carry on the last access job that did not finish
	MaxAge time.Duration // a plan older than this is re-checked
	DryRun bool          // re-check and show, send nothing
}

// DefaultMaxAge is how old a plan may be before apply re-reads it whole
// (sooner when a project it touches moved since).
const DefaultMaxAge = time.Hour

// RunApply carries out a plan file: re-checked against the service when it
// is old or its projects moved, confirmed by typing its count, then sent
// as a journaled job (`--resume` after a stop), with its receipt.
func RunApply(ctx context.Context, o *Options) int {
	p := o.IO
	if o.RefuseReadOnly != nil {
		if code, ok := o.RefuseReadOnly(); !ok {
			return code
		}
	}
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	st, profile, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	k := change.Kind{API: c}
	d := o.deps(st)
	if o.ApplyOpts.Resume {
		id, err := lastUnfinished(st)
		if err != nil {
			return p.Fail(err)
		}
		p.Note("resuming access job %d: what its requests in flight did is read from the service first", id)
		return o.report(ctx, c, st, writejob.Resume(ctx, d, k, id))
	}
	if o.ApplyOpts.Plan == "" {
		return p.Usage("name the plan file (`vaultdeck access plan ... --out plan.json` makes one), or --resume")
	}
	plan, err := readPlan(o.ApplyOpts.Plan)
	if err != nil {
		return p.Fail(err)
	}
	if len(plan.Refused) > 0 {
		return p.Fail(fmt.Errorf("the plan refuses %s: %s; it cannot be applied", plural.Count(len(plan.Refused), "project"), strings.Join(plan.Refused, "; ")))
	}
	if plan.BaseURL != "" && plan.BaseURL != c.Base() {
		return p.Fail(fmt.Errorf("the plan was made against %s, not %s", plan.BaseURL, c.Base()))
	}
	plan, err = o.recheck(ctx, c, plan)
	if err != nil {
		return p.Fail(err)
	}
	items, err := change.Items(plan)
	if err != nil {
		return p.Fail(err)
	}
	if len(items) == 0 {
		p.Note("the plan changes nothing: every row is already so")
		return printer.ExitOK
	}
	sends := items[len(items)-1].Send
	w := p.Err()
	showText(w, plan)
	fmt.Fprintf(w, "%s in %s; %s\n", plural.Count(len(items), "change"), plural.Count(sends, "request"), eta(sends, c.Budget(api.CategoryVault)))
	if o.ApplyOpts.DryRun {
		p.Note("--dry-run: nothing was sent")
		return printer.ExitOK
	}
	job, err := o.jobOf(ctx, c, profile, planText(plan))
	if err != nil {
		return p.Fail(err)
	}
	if ok, code := o.confirm(len(items), "apply"); !ok {
		return code
	}
	wp, err := writejob.NewPlan(job, items)
	if err != nil {
		return p.Fail(err)
	}
	id, err := writejob.Start(d, wp)
	if err != nil {
		return p.Fail(err)
	}
	p.Note("access job %d recorded: if it stops, `vaultdeck access apply --resume` carries it on", id)
	return o.report(ctx, c, st, writejob.Run(ctx, d, k, id))
}

// recheck reads the plan's projects again when the plan is older than the
// bound or a project it touches moved since: made again from its wants,
// it must say the same, or nothing is sent.
func (o *Options) recheck(ctx context.Context, c *api.Client, plan *change.Plan) (*change.Plan, error) {
	maxAge := o.ApplyOpts.MaxAge
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	projects, _, err := change.Listing(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("reading the projects: %w", err)
	}
	var moved []string
	for _, s := range plan.Projects {
		now := projects[s.ID]
		switch {
		case now == nil:
			return nil, fmt.Errorf("%s (%s) is no longer listed: make the plan again", s.Name, s.ID)
		case now.UpdatedAt != s.UpdatedAt:
			moved = append(moved, s.Name)
		}
	}
	age := o.now().Sub(plan.MadeAt)
	if len(moved) == 0 && age <= maxAge {
		return plan, nil
	}
	why := fmt.Sprintf("it is %s old", age.Round(time.Minute))
	if len(moved) > 0 {
		why = fmt.Sprintf("the sharing of %s changed since", sanitize.Line(strings.Join(moved, ", ")))
	}
	o.IO.Note("re-checking the plan: %s", why)
	if err := change.Read(ctx, c, projects, plan.Wants, o.readLine()); err != nil {
		return nil, err
	}
	fresh, err := change.Make(plan.Source, o.now(), projects, plan.Wants, plan.Leaving)
	if err != nil {
		return nil, err
	}
	fresh.BaseURL = plan.BaseURL
	if len(fresh.Refused) > 0 {
		return nil, fmt.Errorf("made again, the plan refuses %s: %s", plural.Count(len(fresh.Refused), "project"), strings.Join(fresh.Refused, "; "))
	}
	if diff := differences(plan, fresh); len(diff) > 0 {
		return nil, fmt.Errorf("the service changed since the plan was made: %s; nothing was sent: make the plan again and read it", sanitize.Line(strings.Join(diff, "; ")))
	}
	return fresh, nil
}

// differences names the rows two plans do not agree on.
func differences(a, b *change.Plan) []string {
	key := func(r change.Row) string { return r.Target() }
	rows := map[string]change.Row{}
	for _, r := range b.Rows {
		rows[key(r)] = r
	}
	var out []string
	for _, r := range a.Rows {
		n, ok := rows[key(r)]
		switch {
		case !ok:
			out = append(out, r.Label()+": no longer planned")
		case n.Action != r.Action || n.Direct != r.Direct || n.To != r.To:
			out = append(out, fmt.Sprintf("%s: was %s %s to %s, now %s %s to %s", r.Label(), r.Action, dash(r.Direct), dash(r.To), n.Action, dash(n.Direct), dash(n.To)))
		}
	}
	return out
}

// eta is how long the requests take within the vault budget: what it has
// left goes now, the rest at its limit a minute.
func eta(sends int, b api.BudgetStatus) string {
	limit := b.Limit
	if limit <= 0 {
		return "no vault budget applies"
	}
	left := max(b.Remaining, 0)
	if sends <= left {
		return fmt.Sprintf("within the vault budget (%d a minute): no wait", limit)
	}
	mins := (sends - left + limit - 1) / limit
	return fmt.Sprintf("at the vault budget's %d a minute, about %s", limit, plural.Count(mins, "minute"))
}

// confirm is the typed confirmation of the count: on a terminal the
// person types it; otherwise --yes is needed.
func (o *Options) confirm(n int, verb string) (bool, int) {
	if o.ApplyOpts.Yes {
		return true, 0
	}
	if !o.IO.StdinIsTerminal() {
		o.IO.Note("stdin is not a terminal, so nobody can confirm: add --yes to %s %s without typing the count", verb, plural.Count(n, "change"))
		return false, printer.ExitUsage
	}
	fmt.Fprintf(o.IO.Err(), "Type %d (the number of changes) to %s them, anything else to stop: ", n, verb)
	line, _ := bufio.NewReader(o.IO.In()).ReadString('\n')
	if strings.TrimSpace(strings.ReplaceAll(line, ",", "")) != strconv.Itoa(n) {
		o.IO.Note("not confirmed; nothing was sent")
		return false, printer.ExitError
	}
	return true, 0
}

// jobOf is the job's record: who runs it (whoami's e-mail, the local
// account) and against what.
func (o *Options) jobOf(ctx context.Context, c *api.Client, profile, text string) (store.WriteJob, error) {
	who, err := c.WhoAmI(ctx)
	if err != nil {
		return store.WriteJob{}, fmt.Errorf("asking who the token is (the receipt names who acted): %w", err)
	}
	// a token without the permission would be refused at every request:
	// said before anything is recorded (whoami lists it where it can)
	if len(who.Permissions) > 0 && !slices.Contains(who.Permissions, "Vault sharing") {
		return store.WriteJob{}, fmt.Errorf("the token (%s) lacks the Vault sharing permission that changing access needs; nothing was sent", who.TokenName)
	}
	return writejob.Stamp(ctx, store.WriteJob{Kind: change.KindName, Profile: profile, Workspace: who.WorkspaceID, BaseURL: c.Base(),
		ActorEmail: who.Email, Plan: text}), nil
}

func (o *Options) deps(st *store.Store) writejob.Deps {
	line := &applyLine{cmd: o.IO.Command(), w: o.IO.Err(), tty: o.IO.StderrIsTerminal()}
	return writejob.Deps{Store: st, Progress: line.update}
}

// lastUnfinished is the newest access job that did not complete.
func lastUnfinished(st *store.Store) (int64, error) {
	jobs, err := st.WriteJobs(change.KindName)
	if err != nil {
		return 0, err
	}
	for _, j := range jobs {
		if j.Status != store.JobComplete {
			return j.ID, nil
		}
	}
	return 0, errors.New("no access job is unfinished: there is nothing to resume")
}

// RunUndo puts back what an access job changed, as its receipt has it:
// the previous levels the service's answers gave; a share someone changed
// since is left alone and named.
func RunUndo(ctx context.Context, o *Options) int {
	p := o.IO
	if o.RefuseReadOnly != nil {
		if code, ok := o.RefuseReadOnly(); !ok {
			return code
		}
	}
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	st, profile, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	k := change.Kind{API: c}
	_, up, err := writejob.PlanUndo(ctx, st, k, o.ApplyOpts.Job)
	if err != nil {
		return p.Fail(err)
	}
	fmt.Fprintln(p.Err(), sanitize.Text(up.Text))
	for _, r := range up.Refused {
		p.Note("left alone: %s: %s", sanitize.Line(r.Label), sanitize.Line(r.Why))
	}
	if len(up.Items) == 0 {
		return p.Fail(errors.New("nothing can be put back: every change was changed again since"))
	}
	if o.ApplyOpts.DryRun {
		p.Note("--dry-run: nothing was sent")
		return printer.ExitOK
	}
	job, err := o.jobOf(ctx, c, profile, up.Text)
	if err != nil {
		return p.Fail(err)
	}
	if ok, code := o.confirm(len(up.Items), "put back"); !ok {
		return code
	}
	job.UndoOf = o.ApplyOpts.Job
	wp, err := writejob.NewPlan(job, up.Items)
	if err != nil {
		return p.Fail(err)
	}
	d := o.deps(st)
	id, err := writejob.Start(d, wp)
	if err != nil {
		return p.Fail(err)
	}
	code := o.report(ctx, c, st, writejob.Run(ctx, d, k, id))
	if len(up.Refused) > 0 {
		code = max(code, printer.ExitError)
	}
	return code
}

// planText is the plan as the job records it: what the person read.
func planText(plan *change.Plan) string { return plan.Text(sanitize.Line) }
