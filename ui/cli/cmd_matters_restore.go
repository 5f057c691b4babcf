package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

func (r *runner) mattersRestoreCmd() *cobra.Command {
	c := &cobra.Command{Use: "restore --receipt ID", Short: "undo a deletion receipt: restore what it deleted", Args: cmdutil.NoArgs}
	fs := c.Flags()
	rid := fs.Int64("receipt", 0, "the deletion receipt to undo (`ID` from 'vaultdeck matters receipts')")
	dry := fs.Bool("dry-run", false, "list what would be restored and send nothing")
	yes := fs.Bool("yes", false, "do not ask to type the number of pairs (needed when stdin is not a terminal)")
	c.RunE = r.run(func(ctx context.Context, _ []string) int {
		if *rid <= 0 {
			return r.usage("give --receipt ID")
		}
		if !*dry {
			if code, ok := r.refuseReadOnly(); !ok {
				return code
			}
		}
		st, err := r.openStore()
		if err != nil {
			return r.fail(err)
		}
		defer st.Close()
		plan, err := matters.PlanRestore(st, *rid)
		if err != nil {
			return r.fail(err)
		}
		rec := plan.Receipt
		if len(plan.Done) > 0 {
			done := len(plan.Done)
			fmt.Fprintf(r.env.Stderr, "vaultdeck %s: %s of receipt %d %s already restored by %s; %s not sent again\n",
				r.cmd, plural.Count(done, "pair"), rec.ID, plural.Verb(done, "was", "were"), matterrunReceipts(plan.DoneBy), plural.Verb(done, "it is", "they are"))
		}
		if len(plan.Later) > 0 && plan.Candidates() > 0 {
			fmt.Fprintf(r.env.Stderr, "vaultdeck %s: %s\n", r.cmd, matters.LaterText(plan))
		}
		if *dry || plan.Candidates() == 0 {
			return r.restorePreview(plan, *dry)
		}
		fmt.Fprintf(r.env.Stderr, "receipt %d (%s, %s) deleted %s", rec.ID, sanitize.Line(rec.FileName), rec.StartedAt.UTC().Format(timeLayout), plural.Count(len(plan.Proven), "matter"))
		if n := len(plan.InFlight); n > 0 {
			fmt.Fprintf(r.env.Stderr, "; %d more %s sent without a recorded answer (in flight, or outcome unknown) and %s checked against the service first", n, plural.Verb(n, "was", "were"), plural.Verb(n, "is", "are"))
		}
		fmt.Fprintln(r.env.Stderr)
		if ok, code := r.confirmCount(plan.Candidates(), "restore", *yes, false); !ok {
			return code
		}
		c, err := r.client()
		if err != nil {
			return r.fail(err)
		}
		id, rep, err := matters.Restore(ctx, r.deps(c, st), plan, r.mattersWatch())
		if rep != nil {
			r.sayLeftAlone(rep)
		}
		return r.report(id, rep, err, "")
	})
	return c
}
