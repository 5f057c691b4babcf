// Package accesscmd is `vaultdeck access`: the access review (api/access).
// crawl reads every project's users into a snapshot; user, project, diff,
// people and snapshots read the snapshots and never touch the network.
package accesscmd

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// Options are what an access command was asked and what it works with.
type Options struct {
	IO      *printer.Printer
	Client  func() (*api.Client, error)
	Journal func() (*store.Store, string, error) // the profile's database: its snapshots

	Email     string   // user
	ProjectID string   // project
	Snapshot  int64    // user, project, people: 0 is the last finished one
	Diff      [2]int64 // diff: the older and the newer snapshot, 0 the last two

	PlanOpts       PlanOptions  // plan
	ApplyOpts      ApplyOptions // apply, undo, receipts
	Now            func() time.Time
	RefuseReadOnly func() (int, bool) // apply, undo: a read-only profile changes nothing
}

// NewCmdAccess is `access` with its subcommands, each running its RunX
// on the one Options (tests call those over buffers).
func NewCmdAccess(f *factory.Factory) *cobra.Command {
	o := &Options{IO: f.IO, Client: f.Client, Journal: f.OpenJournal, Now: f.Now, RefuseReadOnly: f.RefuseReadOnly}
	run := func(runX func(context.Context, *Options) int, read func(args []string)) func(*cobra.Command, []string) error {
		return cmdutil.Run(f, func(ctx context.Context, args []string) int {
			if read != nil {
				read(args)
			}
			return runX(ctx, o)
		})
	}
	c := &cobra.Command{
		Use:   "access",
		Short: "access review: crawl every project's users into a snapshot, then ask who reaches what and what changed",
		Args:  cmdutil.NoArgs,
		RunE:  cmdutil.NeedSub,
	}

	// Its pace is the global --max-rate, the one knob for every command.
	crawl := &cobra.Command{Use: "crawl", Short: "read every project's users into a new snapshot (resumable)", Args: cmdutil.NoArgs, RunE: run(RunCrawl, nil)}

	user := &cobra.Command{Use: "user EMAIL", Short: "the projects a user reaches, and how", Args: cmdutil.EmailArg,
		RunE: run(RunUser, func(args []string) { o.Email = strings.TrimSpace(args[0]) })}
	user.Flags().Int64Var(&o.Snapshot, "snapshot", 0, "read snapshot `N` (default: the last finished one)")

	project := &cobra.Command{Use: "project PROJECT_ID", Short: "the users of a project", Args: cmdutil.ProjectIDArg,
		RunE: run(RunProject, func(args []string) { o.ProjectID = args[0] })}
	project.Flags().Int64Var(&o.Snapshot, "snapshot", 0, "read snapshot `N` (default: the last finished one)")

	diff := &cobra.Command{Use: "diff [OLD_SNAPSHOT] [NEW_SNAPSHOT]", Short: "what changed between two snapshots (default: the last two)", Args: func(_ *cobra.Command, args []string) error {
		if len(args) > 2 {
			return cmdutil.Usagef("give at most two snapshot numbers (default: the last two)")
		}
		for _, p := range args {
			if n, err := strconv.ParseInt(p, 10, 64); err != nil || n <= 0 {
				return cmdutil.Usagef("%q is not a snapshot number (see `vaultdeck access snapshots`)", p)
			}
		}
		return nil
	}, RunE: run(RunDiff, func(args []string) {
		for i, p := range args {
			o.Diff[i], _ = strconv.ParseInt(p, 10, 64) // checked by Args
		}
	})}

	people := &cobra.Command{Use: "people", Short: "everyone in a snapshot with their project counts, most projects first (the console's access view)", Args: cmdutil.NoArgs, RunE: run(RunPeople, nil)}
	people.Flags().Int64Var(&o.Snapshot, "snapshot", 0, "read snapshot `N` (default: the last finished one)")

	snaps := &cobra.Command{Use: "snapshots", Short: "list the snapshots kept", Args: cmdutil.NoArgs, RunE: run(RunSnapshots, nil)}

	plan := &cobra.Command{Use: "plan", Short: "plan a change of access against the service now: --remove, --copy, --set or --revert (the plan is the dry run)", Args: cmdutil.NoArgs, RunE: run(RunPlan, nil)}
	pf := plan.Flags()
	pf.StringVar(&o.PlanOpts.Remove, "remove", "", "remove every direct share of `EMAIL` (inherited and owner access named, not changed)")
	pf.StringVar(&o.PlanOpts.NewManager, "new-manager", "", "with --remove: give `EMAIL` MANAGE where nobody else would manage")
	pf.StringVar(&o.PlanOpts.CopyFrom, "copy", "", "give what `FROM` reaches directly, at the same levels, to --to")
	pf.StringVar(&o.PlanOpts.CopyTo, "to", "", "with --copy: the person who gets it (`EMAIL`)")
	pf.StringVar(&o.PlanOpts.Set, "set", "", "the rows of the CSV `FILE`: PROJECT ID, EMAIL, LEVEL (MANAGE, READ or NONE; the BOM of a spreadsheet is skipped)")
	pf.Int64Var(&o.PlanOpts.Revert, "revert", 0, "put direct access back as snapshot `N` had it")
	pf.StringVar(&o.PlanOpts.Out, "out", "", "write the plan to `FILE` (JSON) for `access apply`")

	apply := &cobra.Command{Use: "apply [PLAN_FILE]", Short: "carry out a plan as a journaled job, with a receipt (--resume after a stop)", Args: cobraMaxOne,
		RunE: run(RunApply, func(args []string) {
			if len(args) == 1 {
				o.ApplyOpts.Plan = args[0]
			}
		})}
	af := apply.Flags()
	af.BoolVar(&o.ApplyOpts.Yes, "yes", false, "apply without typing the count")
	af.BoolVar(&o.ApplyOpts.Resume, "resume", false, "carry on the last access job that did not finish")
	af.BoolVar(&o.ApplyOpts.DryRun, "dry-run", false, "re-check the plan and show it; send nothing")
	af.DurationVar(&o.ApplyOpts.MaxAge, "max-age", DefaultMaxAge, "re-check a plan older than `DURATION` against the service")

	undo := &cobra.Command{Use: "undo JOB", Short: "put back what an access job changed (a change made since is left alone and named)", Args: cobraJob,
		RunE: run(RunUndo, func(args []string) { o.ApplyOpts.Job, _ = strconv.ParseInt(args[0], 10, 64) })}
	undo.Flags().BoolVar(&o.ApplyOpts.Yes, "yes", false, "undo without typing the count")
	undo.Flags().BoolVar(&o.ApplyOpts.DryRun, "dry-run", false, "show what would be put back; send nothing")

	receipts := &cobra.Command{Use: "receipts [JOB]", Short: "the access jobs, or one job's receipt with the service's audit entries", Args: func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		return cobraJob(c, args)
	},
		RunE: run(RunReceipts, func(args []string) {
			if len(args) == 1 {
				o.ApplyOpts.Job, _ = strconv.ParseInt(args[0], 10, 64)
			}
		})}

	c.AddCommand(crawl, user, project, diff, people, snaps, plan, apply, undo, receipts)
	return c
}

func cobraMaxOne(_ *cobra.Command, args []string) error {
	if len(args) > 1 {
		return cmdutil.Usagef("give at most one argument")
	}
	return nil
}

// cobraJob is one job number.
func cobraJob(_ *cobra.Command, args []string) error {
	if len(args) != 1 {
		return cmdutil.Usagef("name the access job (see `vaultdeck access receipts`)")
	}
	if n, err := strconv.ParseInt(args[0], 10, 64); err != nil || n <= 0 {
		return cmdutil.Usagef("%q is not a job number (see `vaultdeck access receipts`)", args[0])
	}
	return nil
}
