package accesscmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/evidence"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// showText is a plan for people: one line a row, the count under it.
func showText(w io.Writer, plan *change.Plan) { fmt.Fprint(w, plan.Text(sanitize.Line)) }

// applyLine is the run's progress on stderr: a line redrawn on a terminal,
// one line a request otherwise.
type applyLine struct {
	cmd   string
	w     io.Writer
	tty   bool
	mu    sync.Mutex
	drawn bool
}

func (l *applyLine) update(p writejob.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	text := fmt.Sprintf("request %d/%d: %d of %s answered", p.Sent, p.Sends, p.Settled, plural.Count(p.Items, "change"))
	if p.Waiting > 0 {
		text += fmt.Sprintf(", waiting %s to retry", p.Waiting)
	}
	if l.tty {
		fmt.Fprintf(l.w, "\r\x1b[K%s", text)
		l.drawn = true
		if p.Settled == p.Items {
			fmt.Fprintln(l.w)
			l.drawn = false
		}
		return
	}
	fmt.Fprintf(l.w, "vaultdeck %s: %s\n", l.cmd, text)
}

// report prints a run's receipt and says how it ended: 0 when every
// change is done, 1 when the service refused some, 3 when any outcome is
// not known (in flight, unknown or not sent: `--resume`).
func (o *Options) report(ctx context.Context, c *api.Client, st *store.Store, rep *writejob.Report) int {
	code := o.showReceipt(ctx, c, st, &writejob.Receipt{Job: rep.Job, Items: rep.Items})
	if rep.Err != nil {
		o.IO.Note("stopped: %s", sanitize.Line(rep.Err.Error()))
	}
	switch {
	case rep.Err != nil || !rep.Settled():
		o.IO.Note("%s not settled: `vaultdeck access apply --resume` finds out what happened and carries on",
			plural.Count(len(rep.Items)-rep.Count(writejob.Done)-rep.Count(writejob.Failed), "change"))
		return max(code, printer.ExitPartial)
	case rep.Count(writejob.Failed) > 0:
		return max(code, printer.ExitError)
	}
	return code
}

// showReceipt prints a job's items with their outcomes and the service's
// audit entries for it, from the local mirror.
func (o *Options) showReceipt(ctx context.Context, c *api.Client, st *store.Store, rc *writejob.Receipt) int {
	ev, note, ok := o.evidence(ctx, c, st, rc)
	return o.IO.Done(o.IO.Show(printer.Result{
		JSON: func() (any, error) {
			items := make([]map[string]any, len(rc.Items))
			for i, it := range rc.Items {
				var p map[string]any
				_ = json.Unmarshal([]byte(it.Params), &p)
				items[i] = map[string]any{"target": it.Target, "label": it.Label, "action": it.Action, "state": it.State,
					"outcome": it.Outcome, "previous": it.Previous, "detail": it.Detail, "params": p}
			}
			return map[string]any{"job": rc.Job.ID, "status": rc.Job.Status, "undo_of": rc.Job.UndoOf, "undone_by": orNone(rc.UndoneBy),
				"actor": rc.Job.ActorEmail, "actor_os_user": rc.Job.ActorOSUser, "actor_key": rc.Job.ActorKey, "items": items, "audit": evidence.JSON(ev, note, ok)}, nil
		},
		Text: func(w io.Writer) error {
			fmt.Fprintf(w, "access job %d  %s  by %s\n", rc.Job.ID, rc.Job.Status, sanitize.Line(writejob.Who(rc.Job)))
			if rc.Job.UndoOf != 0 {
				fmt.Fprintf(w, "undoes    job %d\n", rc.Job.UndoOf)
			}
			for _, it := range rc.Items {
				line := fmt.Sprintf("  %-8s %-8s %s", it.State, dash(it.Outcome), sanitize.Line(it.Label))
				if it.Previous != "" {
					line += "  (was " + it.Previous + ")"
				}
				if it.Detail != "" {
					line += "  " + sanitize.Line(it.Detail)
				}
				fmt.Fprintln(w, line)
			}
			if len(rc.UndoneBy) > 0 {
				fmt.Fprintf(w, "undone by job %d\n", rc.UndoneBy[len(rc.UndoneBy)-1])
			}
			evidence.Print(w, ev, note)
			return nil
		},
		Table: func(row func([]string) error) error { // the console's e on the receipt writes the same
			if err := row(records.AccessChangeHeader()); err != nil {
				return err
			}
			for i := range rc.Items {
				if err := row(records.AccessChange(&rc.Items[i])); err != nil {
					return err
				}
			}
			return nil
		},
	}))
}

func orNone(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

// evidence is the service's audit entries of the job's requests, both
// types, from the mirror (no audit request).
func (o *Options) evidence(ctx context.Context, c *api.Client, st *store.Store, rc *writejob.Receipt) (audit.Evidence, string, bool) {
	first, last, sent := rc.Sent()
	if !sent {
		return audit.Evidence{}, "nothing was sent", false
	}
	to := last.DoneAt
	if to.IsZero() {
		to = last.SentAt
	}
	client := func() (*api.Client, error) { return c, nil }
	var all audit.Evidence
	var notes []string
	okAll, covered := true, true
	for _, typ := range []string{change.AuditUpdate, change.AuditRemove} {
		if !sends(rc, typ) {
			continue
		}
		ev, note, ok := evidence.Find(ctx, client, st, audit.Action{Type: typ, From: first.SentAt, To: to})
		all.Entries = append(all.Entries, ev.Entries...)
		covered = covered && ok && ev.Covered
		all.Covered = covered
		notes = append(notes, typ+": "+note)
		okAll = okAll && ok
	}
	return all, strings.Join(notes, "; "), okAll
}

// sends says whether the job sent a request of the audit type.
func sends(rc *writejob.Receipt, typ string) bool {
	for _, it := range rc.Items {
		if it.SentAt.IsZero() {
			continue
		}
		if (it.Action == change.Remove) == (typ == change.AuditRemove) {
			return true
		}
	}
	return false
}

// RunReceipts lists the access jobs, or shows one's receipt.
func RunReceipts(ctx context.Context, o *Options) int {
	p := o.IO
	st, _, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	if o.ApplyOpts.Job != 0 {
		rc, err := writejob.ReadReceipt(st, o.ApplyOpts.Job)
		if err != nil {
			return p.Fail(err)
		}
		if rc.Job.Kind != change.KindName {
			return p.Fail(fmt.Errorf("write job %d is a %s job, not an access job", rc.Job.ID, rc.Job.Kind))
		}
		c, err := o.Client()
		if err != nil {
			return p.Fail(err)
		}
		return o.showReceipt(ctx, c, st, rc)
	}
	jobs, err := st.WriteJobs(change.KindName)
	if err != nil {
		return p.Fail(err)
	}
	if jobs == nil {
		jobs = []store.WriteJob{} // an empty listing is [] in JSON, never null
	}
	recs := make([][]string, len(jobs))
	for i := range jobs {
		recs[i] = records.AccessJob(&jobs[i])
	}
	if p.Is(printer.CSV) { // the console's e on :receipts writes the same; a Value: --filter and --sort apply
		return p.Done(p.Show(printer.Value{Headers: records.AccessJobHeader(), Rows: recs}))
	}
	rows := make([][]string, len(jobs))
	for i, rec := range recs {
		rec[1] = p.Cells().Time(jobs[i].CreatedAt)
		rec[7] = sanitize.Line(rec[7])
		rows[i] = rec
	}
	return p.Done(p.Show(printer.Value{JSON: jobs, Headers: []string{"JOB", "STARTED", "STATUS", "DONE", "FAILED", "NOT SETTLED", "UNDOES", "BY"}, Rows: rows, Empty: "no access job yet"}))
}
