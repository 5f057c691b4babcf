package accesstask

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// undoing is the undo of one access job, planned and waiting for its
// confirmation.
type undoing struct {
	job int64
	up  *writejob.UndoPlan
}

type undoPlanned = page.Result[undoing]

// AskUndo plans the undo of access job `job` as `vaultdeck access undo JOB`
// does (writejob.PlanUndo with the access kind: each change put back to
// its level before, a change someone made since left alone by name), in a
// command; the confirmation opens when it arrives.
func (f *Flow) AskUndo(env page.Env, id page.ID, job int64) tea.Cmd {
	if why := Why(env); why != "" {
		return page.Status(why)
	}
	if f.running {
		return page.Status("an access change of this page is running: its outcome comes first")
	}
	svc, st := env.Jobs.Access, env.Journal
	tag, ctx := f.reqs.Start(env.Context(), id)
	f.planning = true
	// in sequence: a plan refused at once (read from the journal) must
	// not have its refusal overwritten by this "reading…" line
	return tea.Sequence(page.Status(fmt.Sprintf("reading the projects' users now, to plan the undo of access job %d…", job)),
		page.Fetch(ctx, tag, "access undo plan", func(ctx context.Context) (undoing, error) {
			_, up, err := writejob.PlanUndo(ctx, st, change.Kind{API: svc}, job)
			return undoing{job: job, up: up}, err
		}))
}

// undoPlanned opens the confirmation of an undo that puts something back,
// or says why there is nothing to put back.
func (f *Flow) undoPlanned(env page.Env, u undoing, err error) tea.Cmd {
	switch {
	case err != nil:
		return page.Error(fmt.Errorf("planning the undo of access job %d: %w", u.job, err))
	case len(u.up.Items) == 0:
		return page.Error(fmt.Errorf("access job %d: nothing can be put back: every change was changed again since (%s)", u.job, sanitize.Line(refusals(u.up))))
	}
	f.undo = &u
	n := len(u.up.Items)
	f.confirm = widgets.NewConfirm(env.Theme, fmt.Sprintf("Undo access job %d", u.job), UndoMessage(u.up), strconv.Itoa(n))
	return page.Status("the undo is read from the service now: type its count to run it, esc to cancel")
}

// UndoMessage is the undo's confirmation text: the plan as `access undo`
// shows it (its text names what it leaves alone, and why), and what it
// costs.
func UndoMessage(up *writejob.UndoPlan) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(sanitize.Text(up.Text), "\n"))
	sends := 0
	if len(up.Items) > 0 {
		sends = up.Items[len(up.Items)-1].Send
	}
	fmt.Fprintf(&b, "\n%s put back in %s, from the vault budget (10 a minute). Recorded before each request, as a job of its own.",
		plural.Count(len(up.Items), "change"), plural.Count(sends, "request"))
	return b.String()
}

func refusals(up *writejob.UndoPlan) string {
	var out []string
	for _, r := range up.Refused {
		out = append(out, r.Label+": "+r.Why)
	}
	return strings.Join(out, "; ")
}

// UndoTask runs the undo as an "access" job of its own that names the job
// it undoes (its receipt then says "undone by"), as `access undo` does.
func UndoTask(env page.Env, origin page.ID, job int64, up *writejob.UndoPlan) page.StartTask {
	n := len(up.Items)
	return page.StartTask{
		Name:        fmt.Sprintf("undo access job %d: %s", job, plural.Count(n, "change")),
		Origin:      origin,
		Invalidates: []string{person.CacheProjects},
		Reloads:     []string{person.CacheProjects},
		Stop:        func() {}, // quitting waits for the answer of a request already sent
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			return run(ctx, env, origin, sanitize.Text(up.Text)+"\n(the console: undo)\n", job, up.Items, progress)
		},
	}
}
