package uploadcmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/evidence"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// UndoOptions are what `uploads undo` was asked.
type UndoOptions struct {
	*Options
	Arg     string
	DryRun  bool
	Yes     bool
	Receipt bool
	// Tries and RetryAfter bound the sends of a file still processing
	// (409): that many, that far apart, then it is named.
	Tries      int
	RetryAfter time.Duration
}

// NewCmdUndo is `uploads undo RUN`.
func NewCmdUndo(f *factory.Factory) *cobra.Command {
	o := &UndoOptions{Options: options(f)}
	c := &cobra.Command{Use: "undo RUN", Short: "delete the files an upload run created that are still the run's (a plan, a typed confirmation, a receipt; run it again to resume)",
		Args: cobra.ExactArgs(1)}
	c.Flags().BoolVar(&o.DryRun, "dry-run", false, "show the plan and send nothing")
	c.Flags().BoolVar(&o.Receipt, "receipt", false, "show the receipts of the run's undos (each file's outcome, the audit evidence) and send nothing")
	c.Flags().BoolVar(&o.Yes, "yes", false, "do not ask to type the number of files (needed when stdin is not a terminal)")
	c.Flags().IntVar(&o.Tries, "tries", 5, "send a file the service says is still processing (409) at most `N` times, then name it")
	cmdutil.DurationFlag(c.Flags(), &o.RetryAfter, "retry-after", 20*time.Second, "wait `DURATION` between the tries of files still processing")
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		o.Arg = args[0]
		return RunUndo(ctx, o)
	})
	return c
}

// RunUndo plans the undo of a run, asks for the count, runs it as a write
// job and prints its receipt. An earlier undo of the run that did not
// settle is resumed instead of planned again.
func RunUndo(ctx context.Context, o *UndoOptions) int {
	p := o.IO
	runID, err := strconv.ParseInt(o.Arg, 10, 64)
	if err != nil || runID <= 0 {
		return p.Usage("RUN is a run number from `vaultdeck uploads`, not %q", o.Arg)
	}
	if !o.DryRun && !o.Receipt {
		if code, ok := o.RefuseReadOnly(); !ok {
			return code
		}
	}
	st, profile, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	if err := st.CheckJournal(); err != nil {
		return p.Fail(err)
	}
	run, err := findRun(st, profile, runID)
	if err != nil {
		return p.Fail(err)
	}
	if o.Receipt {
		return o.receipts(ctx, st, run)
	}
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	if o.Tries < 1 {
		return p.Usage("--tries must be at least 1, not %d", o.Tries)
	}
	deps := writejob.Deps{Store: st, MaxAttempts: o.Tries, RetryAfter: o.RetryAfter, Progress: func(pr writejob.Progress) {
		if pr.Budget != nil {
			return // the command's own wait line says it (printer's wait observer)
		}
		if pr.Waiting > 0 {
			fmt.Fprintf(p.Err(), "vaultdeck: %d still processing; trying again in %s (Ctrl-C stops; run the undo again to resume)\n", pr.Items-pr.Settled, pr.Waiting)
			return
		}
		fmt.Fprintf(p.Err(), "request %d (%d planned, then tries again): %d of %s settled\n", pr.Sent, pr.Sends, pr.Settled, plural.Count(pr.Items, "file"))
	}}
	kind := deletefile.New(c)
	if job, ok, err := upload.UnsettledUndo(st, runID); err != nil {
		return p.Fail(err)
	} else if ok {
		if o.DryRun {
			fmt.Fprintf(p.Out(), "undo job %d of run %d did not finish: running the undo again resumes it (it checks first what its last requests did)\n", job.ID, runID)
			return printer.ExitOK
		}
		fmt.Fprintf(p.Err(), "resuming undo job %d of run %d\n", job.ID, runID)
		return o.receipt(ctx, st, writejob.Resume(ctx, deps, kind, job.ID), run)
	}
	undone, err := upload.UndoneFiles(st, runID)
	if err != nil {
		return p.Fail(err)
	}
	plan, err := upload.PlanUndo(ctx, c, st, runID, run.ProjectID, undone)
	if err != nil {
		return p.Fail(err)
	}
	text := upload.UndoText(run, plan)
	if o.DryRun || len(plan.Delete) == 0 {
		err := p.Show(printer.Result{
			JSON: func() (any, error) { return planJSON(plan), nil },
			Text: func(w io.Writer) error { _, err := io.WriteString(w, sanitize.Text(text)); return err },
		})
		if len(plan.Delete) == 0 {
			p.Note("nothing of run %d is left to delete", runID)
		}
		return p.Done(err)
	}
	fmt.Fprint(p.Err(), sanitize.Text(text))
	if ok, code := confirm(o, len(plan.Delete)); !ok {
		return code
	}
	job := store.WriteJob{Kind: deletefile.Name, Profile: profile, BaseURL: c.Base(), Plan: upload.UndoTag(runID) + text}
	if who, err := c.WhoAmI(ctx); err == nil {
		job.ActorEmail, job.Workspace = who.Email, who.WorkspaceID
	}
	wp, err := writejob.NewPlan(writejob.Stamp(ctx, job), deletefile.Items(plan.Delete))
	if err != nil {
		return p.Fail(err)
	}
	id, err := writejob.Start(deps, wp)
	if err != nil {
		return p.Fail(fmt.Errorf("the undo could not be recorded, so nothing was sent: %w", err))
	}
	return o.receipt(ctx, st, writejob.Run(ctx, deps, kind, id), run)
}

// receipts shows the newest undo job of run as its receipt, exit 3 while
// it is not settled; a run never undone is an error.
func (o *UndoOptions) receipts(ctx context.Context, st *store.Store, run store.RunSummary) int {
	jobs, err := upload.UndoJobs(st, run.ID)
	if err != nil {
		return o.IO.Fail(err)
	}
	if len(jobs) == 0 {
		return o.IO.Fail(fmt.Errorf("upload run %d was never undone on this machine", run.ID))
	}
	rc, err := writejob.ReadReceipt(st, jobs[0].ID)
	if err != nil {
		return o.IO.Fail(err)
	}
	rep := &writejob.Report{Job: rc.Job, Items: rc.Items}
	if len(jobs) > 1 {
		o.IO.Note("run %d was undone by %d jobs; this is the newest, %d", run.ID, len(jobs), jobs[0].ID)
	}
	return o.receipt(ctx, st, rep, run)
}

// findRun is the profile's run id.
func findRun(st *store.Store, profile string, id int64) (store.RunSummary, error) {
	r, ok, err := st.UploadRun(profile, id)
	if err == nil && !ok {
		err = fmt.Errorf("profile %s has no upload run %d; `vaultdeck uploads` lists its runs", profile, id)
	}
	return r, err
}

func planJSON(up *upload.UndoPlan) map[string]any {
	del := make([]map[string]any, len(up.Delete))
	for i, f := range up.Delete {
		del[i] = map[string]any{"file_id": f.ID, "name": f.Name, "local_path": f.Path, "size": f.Size}
	}
	left := func(ls []upload.Left) []map[string]any {
		out := make([]map[string]any, len(ls))
		for i, l := range ls {
			out[i] = map[string]any{"file_id": l.FileID, "name": l.Name, "path": l.Path, "why": l.Why}
		}
		return out
	}
	return map[string]any{"run": up.RunID, "project_id": up.ProjectID, "delete": del, "gone": left(up.Gone),
		"left": left(up.Left), "not_sent": up.NotSent}
}

// confirm is the typed count (or --yes).
func confirm(o *UndoOptions, n int) (bool, int) {
	if o.Yes {
		return true, 0
	}
	if !o.IO.StdinIsTerminal() {
		o.IO.Note("stdin is not a terminal, so nobody can confirm: add --yes to delete %s without typing %s number", plural.Count(n, "file"), plural.Verb(n, "its", "their"))
		return false, printer.ExitUsage
	}
	fmt.Fprintf(o.IO.Err(), "Type %d (the number of files) to delete them, anything else to stop: ", n)
	line, _ := bufio.NewReader(o.IO.In()).ReadString('\n')
	if strings.TrimSpace(strings.ReplaceAll(line, ",", "")) != strconv.Itoa(n) {
		o.IO.Note("not confirmed; nothing was sent")
		return false, printer.ExitError
	}
	return true, 0
}

// receipt prints a job's receipt (each file and its outcome, the audit
// evidence) and says how it ended: 0 only when every file is gone.
func (o *UndoOptions) receipt(ctx context.Context, st *store.Store, rep *writejob.Report, run store.RunSummary) int {
	p := o.IO
	// another process runs this undo job: it is its receipt to give, and
	// this one sent nothing
	if held := (*store.JobHeldError)(nil); errors.As(rep.Err, &held) {
		return p.Fail(rep.Err)
	}
	rc := &writejob.Receipt{Job: rep.Job, Items: rep.Items}
	ev := evidence.OfJob(ctx, o.Client, st, rc, deletefile.AuditType, run.ProjectID)
	err := p.Show(printer.Result{
		JSON: func() (any, error) { return receiptJSON(rc, ev), nil },
		Text: func(w io.Writer) error { receiptText(w, rc, ev); return nil },
		Table: func(row func([]string) error) error {
			if err := row([]string{"file_id", "name", "state", "outcome", "detail", "attempts"}); err != nil {
				return err
			}
			for _, it := range rc.Items {
				if err := row([]string{it.Target, it.Label, it.State, it.Outcome, it.Detail, strconv.Itoa(it.Attempts)}); err != nil {
					return err
				}
			}
			return nil
		},
	})
	if err != nil {
		return p.Fail(err)
	}
	switch {
	case rep.Err != nil && len(rep.Items) == 0:
		return p.Fail(rep.Err)
	case rep.Err != nil:
		p.Note("the undo stopped: %s; run `vaultdeck uploads undo %d` again to resume it", sanitize.Line(rep.Err.Error()), run.ID)
		return printer.ExitPartial
	case !rep.Settled() || rep.Count(writejob.Failed) > 0:
		return printer.ExitPartial
	}
	return printer.ExitOK
}

func receiptText(w io.Writer, rc *writejob.Receipt, ev evidence.Job) {
	j := rc.Job
	fmt.Fprintf(w, "job       %d (%s), %s\n", j.ID, j.Kind, j.Status)
	if j.Note != "" {
		fmt.Fprintf(w, "note      %s\n", sanitize.Line(j.Note))
	}
	fmt.Fprintf(w, "by        %s\n", sanitize.Line(writejob.Who(j)))
	counts := []string{}
	for _, s := range []string{writejob.Done, writejob.Failed, writejob.Unknown, writejob.InFlight, writejob.Planned} {
		if n := j.Counts[s]; n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, s))
		}
	}
	fmt.Fprintf(w, "files     %s\n", strings.Join(counts, ", "))
	for _, it := range rc.Items {
		out := it.Outcome
		if out == "" {
			out = it.State
		}
		fmt.Fprintf(w, "          %-8s %s  %s", out, it.Target, sanitize.Line(it.Label))
		if it.Detail != "" {
			fmt.Fprintf(w, "  (%s)", sanitize.Line(it.Detail))
		}
		fmt.Fprintln(w)
	}
	ev.Print(w)
}

func receiptJSON(rc *writejob.Receipt, ev evidence.Job) map[string]any {
	items := make([]map[string]any, len(rc.Items))
	for i, it := range rc.Items {
		items[i] = map[string]any{"file_id": it.Target, "name": it.Label, "state": it.State, "outcome": it.Outcome,
			"detail": it.Detail, "attempts": it.Attempts, "path": deletefile.ParamsOf(it).Path}
	}
	j := rc.Job
	return map[string]any{"job": j.ID, "kind": j.Kind, "status": j.Status, "note": j.Note, "actor_email": j.ActorEmail,
		"actor_os_user": j.ActorOSUser, "actor_key": j.ActorKey, "created_at": j.CreatedAt.UTC(), "items": items, "audit_evidence": ev.JSON()}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
