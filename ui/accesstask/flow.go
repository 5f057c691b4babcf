// Package accesstask is the console's way of changing access (issue 43),
// shared by the views that offer it (:person's reach rows, a project's
// Users tab): the plan made against the service now by the planner `access
// plan` uses (api/access/change), shown whole in a typed confirmation of
// its count, then carried out as the same journaled "access" write job
// `access apply` runs (api/writejob), as a root-owned task, with each
// change's outcome and the job's number for its receipt.
package accesstask

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Flow is one view's access change: planning, confirming, the last run's
// outcome. The zero value is idle.
type Flow struct {
	reqs     page.Requests
	planning bool
	plan     *change.Plan
	undo     *undoing  // the undo the confirmation is for (plan is nil then)
	grant    *granting // the grant's prompt, while it is typed
	confirm  *widgets.Confirm
	running  bool
	last     *Done // the last run this view started
}

// Done is broadcast when an access job the console ran ends: its number
// (for `access receipts N`) and every item with its outcome.
type Done struct {
	Origin page.ID
	Job    int64
	Items  []writejob.Item
}

type planned = page.Result[*change.Plan]

// Why says why env cannot change access ("" when it can): the key is off
// in read-only and job-less sessions already (keys.NewSession); this is the
// view's own refusal when the session lacks the journal.
func Why(env page.Env) string {
	switch {
	case env.ReadOnly:
		return "this session is read-only"
	case env.Jobs == nil || env.Jobs.Access == nil:
		return "this session cannot change access: it was not given the write jobs"
	case env.Journal == nil:
		return "this session cannot change access: it has no journal to record the job in"
	}
	return ""
}

// Ask makes the plan of wants against the service now, in a command; the
// confirmation opens when it arrives.
func (f *Flow) Ask(env page.Env, id page.ID, source string, wants []change.Want, leaving []string) tea.Cmd {
	if why := Why(env); why != "" {
		return page.Status(why)
	}
	switch {
	case f.running:
		return page.Status("an access change of this page is running: its outcome comes first")
	case len(wants) == 0:
		return page.Status("nothing to change")
	}
	svc, now := env.Jobs.Access, env.Clock()
	tag, ctx := f.reqs.Start(env.Context(), id)
	f.planning = true
	// in sequence: a plan refused at once (read from the journal) must
	// not have its refusal overwritten by this "reading…" line
	return tea.Sequence(page.Status("reading the projects' users now, to plan…"),
		page.Fetch(ctx, tag, "access plan", func(ctx context.Context) (*change.Plan, error) {
			return change.PlanNow(ctx, svc, source, now, wants, leaving)
		}))
}

// Planning says a plan is being made.
func (f *Flow) Planning() bool { return f.planning }

// CapturesInput says the confirmation is open: every key is typed into it.
func (f *Flow) CapturesInput() bool { return f.confirm != nil || f.grant != nil }

// Close abandons a plan being made.
func (f *Flow) Close() { f.reqs.Stop() }

// Update takes the flow's own messages and, while the confirmation is
// open, every key; handled says msg was the flow's.
func (f *Flow) Update(env page.Env, id page.ID, msg tea.Msg) (bool, tea.Cmd) {
	switch msg := msg.(type) {
	case planned:
		if !f.reqs.Current(msg.Tag) {
			return true, nil
		}
		f.planning = false
		return true, f.planned(env, msg.Value, msg.Err)
	case undoPlanned:
		if !f.reqs.Current(msg.Tag) {
			return true, nil
		}
		f.planning = false
		return true, f.undoPlanned(env, msg.Value, msg.Err)
	case tea.KeyMsg:
		if f.grant != nil {
			return true, f.grantKey(env, id, msg)
		}
		if f.confirm == nil {
			return false, nil
		}
		switch f.confirm.Update(msg) {
		case widgets.Cancelled:
			f.confirm, f.plan, f.undo = nil, nil, nil
			return true, page.Status("nothing was changed")
		case widgets.Confirmed:
			plan, undo := f.plan, f.undo
			f.confirm, f.plan, f.undo = nil, nil, nil
			if Why(env) != "" { // belt and braces: the key map already refuses
				return true, nil
			}
			f.running = true
			if undo != nil {
				return true, page.Start(UndoTask(env, id, undo.job, undo.up))
			}
			return true, page.Start(Task(env, id, plan))
		}
		return true, nil
	case page.TaskDone:
		if msg.Origin == id && f.running {
			f.running = false
		}
	case Done:
		if msg.Origin == id {
			f.last = &msg
		}
	}
	return false, nil
}

// planned opens the confirmation of a plan that changes something, or
// says why there is nothing to confirm.
func (f *Flow) planned(env page.Env, plan *change.Plan, err error) tea.Cmd {
	switch {
	case err != nil:
		return page.Error(fmt.Errorf("planning the access change: %w", err))
	case len(plan.Refused) > 0:
		return page.Error(fmt.Errorf("refused: it would leave %s without MANAGE: %s; name who manages %s first (`vaultdeck access plan --remove EMAIL --new-manager EMAIL` in a shell); nothing was changed",
			plural.Count(len(plan.Refused), "project"), sanitize.Line(strings.Join(plan.Refused, "; ")), plural.Verb(len(plan.Refused), "it", "them")))
	case plan.Count() == 0:
		return page.Status("nothing to change: " + sanitize.Line(notes(plan)))
	}
	plan.BaseURL = env.Backend.Base()
	f.plan = plan
	n := plan.Count()
	f.confirm = widgets.NewConfirm(env.Theme, "Change access", Message(plan), strconv.Itoa(n))
	return page.Status("the plan is read from the service now: type its count to run it, esc to cancel")
}

// notes is why a plan changes nothing, from its rows.
func notes(p *change.Plan) string {
	var out []string
	for _, r := range p.Rows {
		why := r.Action
		if r.Note != "" {
			why += ": " + r.Note
		}
		out = append(out, r.Label()+" "+why)
	}
	if len(out) == 0 {
		return "the plan has no row"
	}
	return strings.Join(out, "; ")
}

// Message is the confirmation's text: the plan as `access apply` shows it,
// and what it costs.
func Message(p *change.Plan) string {
	items, _ := change.Items(p)
	sends := 0
	if len(items) > 0 {
		sends = items[len(items)-1].Send
	}
	return fmt.Sprintf("%s\n%s in %s, from the vault budget (10 a minute). Recorded before each request; `vaultdeck access undo JOB` puts it back.",
		strings.TrimRight(p.Text(sanitize.Line), "\n"), plural.Count(p.Count(), "change"), plural.Count(sends, "request"))
}

// View is the confirmation, placed in w x h, when it is open.
func (f *Flow) View(th themes.Theme, w, h int) (string, bool) {
	if f.grant != nil {
		return th.Renderer.Place(w, h, 0.5, 0.5, th.Dialog.Width(min(max(w-6, 20), 74)).Render(th.Title.Render("Grant access on "+sanitize.Line(f.grant.name))+"\n\n"+f.grant.line.View()+"\n\n"+th.Muted.Render("EMAIL READ or EMAIL MANAGE · enter plans it · esc cancels"))), true
	}
	if f.confirm == nil {
		return "", false
	}
	return th.Renderer.Place(w, h, 0.5, 0.5, f.confirm.ViewSized(w, h)), true
}

// Outcome is what the last run did to email's access to projectID, as
// the service answered ("removed", "updated", ...), for a view whose rows
// come from a snapshot the run made stale.
func (f *Flow) Outcome(projectID, email string) (string, bool) {
	if f.last == nil {
		return "", false
	}
	target := projectID + "|" + strings.ToLower(strings.TrimSpace(email))
	for _, it := range f.last.Items {
		if it.Target == target && it.State == writejob.Done {
			return it.Outcome, true
		}
	}
	return "", false
}

// Ran says msg is the end of a run this view started: its marks are spent.
func Ran(msg tea.Msg, id page.ID) bool {
	d, ok := msg.(Done)
	return ok && d.Origin == id
}

// Lines are the last run's outcomes, one line a change, for the view to
// show under what it changed.
func (f *Flow) Lines(th themes.Theme) []string {
	if f.last == nil {
		return nil
	}
	out := []string{th.Title.Render(fmt.Sprintf("Last change: access job %d", f.last.Job)) + " " +
		th.Muted.Render(fmt.Sprintf("· `vaultdeck access receipts %d` has the receipt; `vaultdeck access undo %d` puts it back", f.last.Job, f.last.Job))}
	for _, it := range f.last.Items {
		st := th.Muted
		switch it.State {
		case writejob.Failed:
			st = th.Error
		case writejob.Done:
			st = th.Plain
		default:
			st = th.Warn
		}
		line := fmt.Sprintf("    %-8s %-8s %s", it.State, dashed(it.Outcome), sanitize.Line(it.Label))
		if it.Previous != "" {
			line += "  (was " + sanitize.Line(it.Previous) + ")"
		}
		if it.Detail != "" {
			line += "  " + sanitize.Line(it.Detail)
		}
		out = append(out, st.Render(line))
	}
	return out
}

func dashed(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
