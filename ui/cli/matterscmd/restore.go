package matterscmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// RestoreOptions are what `matters restore` was asked.
type RestoreOptions struct {
	*Options
	Receipt int64 // the deletion receipt to undo
	Dry     bool
	Yes     bool
}

func newCmdRestore(f *factory.Factory, opts *Options) *cobra.Command {
	o := &RestoreOptions{Options: opts}
	c := &cobra.Command{Use: "restore --receipt ID", Short: "undo a deletion receipt: restore what it deleted", Args: cmdutil.NoArgs}
	fs := c.Flags()
	fs.Int64Var(&o.Receipt, "receipt", 0, "the deletion receipt to undo (`ID` from 'vaultdeck matters receipts')")
	fs.BoolVar(&o.Dry, "dry-run", false, "list what would be restored and send nothing")
	fs.BoolVar(&o.Yes, "yes", false, "do not ask to type the number of pairs (needed when stdin is not a terminal)")
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return RunRestore(ctx, o) })
	return c
}

// RunRestore undoes a deletion receipt: the pairs it proves deleted, and
// the in-flight ones the service shows this run deleted.
func RunRestore(ctx context.Context, o *RestoreOptions) int {
	rid, dry, yes := &o.Receipt, &o.Dry, &o.Yes
	{
		if *rid <= 0 {
			return o.IO.Usage("give --receipt ID")
		}
		if !*dry {
			if code, ok := o.RefuseReadOnly(); !ok {
				return code
			}
		}
		st, err := o.Store()
		if err != nil {
			return o.IO.Fail(err)
		}
		defer st.Close()
		plan, err := matters.PlanRestore(st, *rid)
		if err != nil {
			return o.IO.Fail(err)
		}
		rec := plan.Receipt
		if len(plan.Done) > 0 {
			done := len(plan.Done)
			o.IO.Note("%s of receipt %d %s already restored by %s; %s not sent again",
				plural.Count(done, "pair"), rec.ID, plural.Verb(done, "was", "were"), matterrunReceipts(plan.DoneBy), plural.Verb(done, "it is", "they are"))
		}
		if len(plan.Later) > 0 && plan.Candidates() > 0 {
			o.IO.Note("%s", matters.LaterText(plan))
		}
		if *dry || plan.Candidates() == 0 {
			return o.restorePreview(plan, *dry)
		}
		fmt.Fprintf(o.IO.Err(), "receipt %d (%s, %s) deleted %s", rec.ID, sanitize.Line(rec.FileName), rec.StartedAt.UTC().Format("2006-01-02 15:04"), plural.Count(len(plan.Proven), "matter"))
		if n := len(plan.InFlight); n > 0 {
			fmt.Fprintf(o.IO.Err(), "; %d more %s sent without a recorded answer (in flight, or outcome unknown) and %s checked against the service first", n, plural.Verb(n, "was", "were"), plural.Verb(n, "is", "are"))
		}
		fmt.Fprintln(o.IO.Err())
		if ok, code := o.confirmCount(plan.Candidates(), "restore", *yes, false); !ok {
			return code
		}
		c, err := o.Client()
		if err != nil {
			return o.IO.Fail(err)
		}
		id, rep, err := matters.Restore(ctx, o.deps(c, st), plan, o.mattersWatch())
		if rep != nil {
			o.sayLeftAlone(rep)
		}
		return o.report(id, rep, err, "")
	}
}
