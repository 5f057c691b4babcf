package cli

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck access crawl|user|project|diff|people|snapshots`: the access review
// (api/access). The subcommands are small, so they share this file; each
// one's work is a function of a plain options struct in access_run.go.
func (r *runner) accessCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "access",
		Short: "access review: crawl every project's users into a snapshot, then ask who reaches what and what changed",
		Args:  cmdutil.NoArgs,
		RunE:  cmdutil.NeedSub,
	}

	crawl := &cobra.Command{Use: "crawl", Short: "read every project's users into a new snapshot (resumable)", Args: cmdutil.NoArgs}
	// Its pace is the global --max-rate, the one knob for every command.
	crawl.RunE = r.run(func(ctx context.Context, _ []string) int { return r.accessCrawl(ctx) })

	user := &cobra.Command{Use: "user EMAIL", Short: "the projects a user reaches, and how", Args: cmdutil.EmailArg}
	userSnap := user.Flags().Int64("snapshot", 0, "read snapshot `N` (default: the last finished one)")
	user.RunE = r.run(func(_ context.Context, args []string) int {
		return r.accessUser(accessQueryOptions{Email: strings.TrimSpace(args[0]), Snapshot: *userSnap})
	})

	project := &cobra.Command{Use: "project PROJECT_ID", Short: "the users of a project", Args: cmdutil.ProjectIDArg}
	projSnap := project.Flags().Int64("snapshot", 0, "read snapshot `N` (default: the last finished one)")
	project.RunE = r.run(func(_ context.Context, args []string) int {
		return r.accessProject(accessQueryOptions{ProjectID: args[0], Snapshot: *projSnap})
	})

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
	}}
	diff.RunE = r.run(func(_ context.Context, args []string) int {
		var ids [2]int64
		for i, p := range args {
			ids[i], _ = strconv.ParseInt(p, 10, 64) // checked by Args
		}
		return r.accessDiff(accessDiffOptions{Old: ids[0], New: ids[1]})
	})

	people := &cobra.Command{Use: "people", Short: "everyone in a snapshot with their project counts, most projects first (the console's access view)", Args: cmdutil.NoArgs}
	peopleSnap := people.Flags().Int64("snapshot", 0, "read snapshot `N` (default: the last finished one)")
	people.RunE = r.run(func(context.Context, []string) int { return r.accessPeople(*peopleSnap) })

	snaps := &cobra.Command{Use: "snapshots", Short: "list the snapshots kept", Args: cmdutil.NoArgs}
	snaps.RunE = r.run(func(context.Context, []string) int { return r.accessSnapshots() })

	c.AddCommand(crawl, user, project, diff, people, snaps)
	return c
}
