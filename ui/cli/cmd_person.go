package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// `vaultdeck person EMAIL`: one person, whole (api/person).
func (r *runner) personCmd() *cobra.Command {
	var o personOptions
	c := &cobra.Command{Use: "person EMAIL", Short: "one person, whole: what they can reach, created, deleted and did (for offboarding and investigations)",
		Long: `Puts together what vaultdeck keeps about one person: the projects they can reach
(the last access snapshot, MANAGE first, and the projects where they are the only
one with MANAGE), the projects and client matters they created (with usage
counts), their deletions still in the recycle bin (with purge times), and their
activity in the audit mirror (last login, addresses used with new ones marked,
counts by type over 7 and 30 days, latest entries). Each part says how old it is.
Parts that nothing local covers are read from the service (the projects listing,
the recycle bin, the client-matters listing: the fewest requests, within the
budget, said on a terminal); the snapshot and the mirror come from
` + "`vaultdeck access crawl`" + ` and ` + "`vaultdeck audit sync`" + `.
--json prints one object (email, name, at, reach, created, deleted, activity,
requests); --csv needs --section. --offboarding prints the checklist an admin
acts on, as CSV. An address nothing names is an error, with close matches.`,
		Args: cmdutil.EmailArg}
	fs := c.Flags()
	fs.StringVar(&o.Section, "section", "", "with --csv: the `PART` to print: reach, created, deleted or activity")
	fs.StringVar(&o.Since, "since", "", "activity: list every entry from `T` (2026-11-01, RFC 3339, or an age such as 36h or 7d) instead of the latest 20")
	fs.BoolVar(&o.Offboarding, "offboarding", false, "print the offboarding checklist as CSV (sole MANAGE projects, own projects, matters in use, deletions in the bin)")
	fs.BoolVar(&o.Offline, "offline", false, "send no request: parts nothing local covers are reported missing")
	_ = c.RegisterFlagCompletionFunc("section", cmdutil.Fixed(personSections))
	c.RunE = r.run(func(ctx context.Context, args []string) int {
		o.Email = strings.TrimSpace(args[0])
		return r.person(ctx, o)
	})
	return c
}
