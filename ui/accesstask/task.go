package accesstask

import (
	"context"
	"fmt"
	"slices"

	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Task is the plan carried out as the "access" write job, owned by the
// root: recorded whole before the first request (writejob.Start), sent a
// project at a time within the vault budget, each change's outcome from
// the service's answer. A stopped job is carried on by `vaultdeck access
// apply --resume`, which asks the service what its last request did.
func Task(env page.Env, origin page.ID, plan *change.Plan) page.StartTask {
	n := plan.Count()
	return page.StartTask{
		Name:        "change access: " + plural.Count(n, "change"),
		Origin:      origin,
		Invalidates: []string{person.CacheProjects},
		Reloads:     []string{person.CacheProjects},
		Stop:        func() {}, // quitting waits for the answer of a request already sent
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			items, err := change.Items(plan)
			if err != nil {
				return page.Outcome{}, err
			}
			return run(ctx, env, origin, plan.Text(sanitize.Line)+"(the console)\n", 0, items, progress)
		},
	}
}

// run records items as one "access" job (undoOf: the job it undoes, 0 for
// none) and sends it: the one way both the console's changes and its
// undos reach the service.
func run(ctx context.Context, env page.Env, origin page.ID, text string, undoOf int64, items []writejob.Item, progress page.Progress) (page.Outcome, error) {
	be, st, svc, profile := env.Backend, env.Journal, env.Jobs.Access, env.DataProfile()
	who, err := be.WhoAmI(ctx)
	if err != nil {
		return page.Outcome{}, fmt.Errorf("asking who the token is (the receipt names who acted): %w; nothing was sent", err)
	}
	if len(who.Permissions) > 0 && !slices.Contains(who.Permissions, "Vault sharing") {
		return page.Outcome{}, fmt.Errorf("the token (%s) lacks the Vault sharing permission that changing access needs; nothing was sent", who.TokenName)
	}
	job := store.WriteJob{Kind: change.KindName, Profile: profile, Workspace: who.WorkspaceID, BaseURL: be.Base(),
		ActorEmail: who.Email, Plan: text, UndoOf: undoOf}
	job = writejob.Stamp(ctx, job) // the local account, and serve's key when a session runs it
	wp, err := writejob.NewPlan(job, items)
	if err != nil {
		return page.Outcome{}, err
	}
	d := writejob.Deps{Store: st, Progress: func(p writejob.Progress) {
		line := fmt.Sprintf("request %d of %d: %d of %s answered", p.Sent, p.Sends, p.Settled, plural.Count(p.Items, "change"))
		if p.Waiting > 0 {
			line += fmt.Sprintf(", waiting %s to retry", p.Waiting)
		}
		progress(line)
	}}
	id, err := writejob.Start(d, wp)
	if err != nil {
		return page.Outcome{}, err
	}
	rep := writejob.Run(ctx, d, change.Kind{API: svc}, id)
	done := Done{Origin: origin, Job: id, Items: rep.Items}
	line := Summary(rep)
	if rep.Err != nil || !rep.Settled() || rep.Count(writejob.Failed) > 0 {
		// the outcomes still reach the page: the error is the status line
		return page.Outcome{Broadcast: done}, fmt.Errorf("%s", line)
	}
	return page.Outcome{Text: line, Broadcast: done}, nil
}

// Summary is a run's one line: what the service said of each change, and
// where the receipt is.
func Summary(rep *writejob.Report) string {
	done, failed := rep.Count(writejob.Done), rep.Count(writejob.Failed)
	line := fmt.Sprintf("access job %d: %d of %s done", rep.Job.ID, done, plural.Count(len(rep.Items), "change"))
	if failed > 0 {
		line += fmt.Sprintf(", %d failed", failed)
	}
	if left := len(rep.Items) - done - failed; left > 0 {
		line += fmt.Sprintf(", %d not settled (`vaultdeck access apply --resume` finds out and carries on)", left)
	}
	if rep.Err != nil {
		line += ": " + rep.Err.Error()
	}
	return line + fmt.Sprintf(" · receipt: `vaultdeck access receipts %d`", rep.Job.ID)
}
