package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

func (r *runner) statusCmd() *cobra.Command {
	c := &cobra.Command{Use: "status FILE_ID... | -", Short: "show file details and processing status", Args: cobra.ArbitraryArgs, Long: "IDs as arguments, comma lists, or one per line on stdin with -. --watch polls until every file is ready, failed or missing; --journal lists every unfinished upload of the profile, across projects."}
	fs := c.Flags()
	watch := fs.Bool("watch", false, "poll until every file is ready, failed or missing, printing changes (NDJSON with --json)")
	journal := fs.Bool("journal", false, "every unfinished file of the profile's journaled uploads, across projects")
	var group string
	fs.Var(cmdutil.EnumFlag(&group, filestatus.Filters), "group", "with --journal: only the files of triage group `G` ("+strings.Join(filestatus.Filters, ", ")+"), as the console's 1-5")
	stuckAfter := new(time.Duration)
	cmdutil.SettingFlag(fs, stuckAfter, "stuck-after", 30*time.Minute, "with --watch or --journal: a file processing longer than `D` is stuck")
	c.RunE = r.run(func(ctx context.Context, pos []string) int {
		// A typed --stuck-after joins the resolution as the console's does;
		// untyped, the profile's stuck-after setting (`vaultdeck config`)
		// wins over the default (r.stuckAfter).
		if fs.Changed("stuck-after") {
			r.g.Flags.StuckAfter = *stuckAfter
		}
		if *journal {
			if len(pos) > 0 || *watch {
				return r.usage("--journal takes no file IDs and no --watch: it lists the upload journal's unfinished files")
			}
			return r.journalStatus(ctx, journalOptions{Group: group})
		}
		if group != "" {
			return r.usage("--group picks among the upload journal's files: give --journal too")
		}
		var ids []string
		readStdin := false
		for _, a := range pos {
			if a == "-" {
				readStdin = true
				continue
			}
			ids = append(ids, cmdutil.SplitList(a)...)
		}
		if readStdin {
			more, err := readIDs(r.env.Stdin)
			if err != nil {
				return r.fail(fmt.Errorf("reading file IDs from stdin: %w", err))
			}
			ids = append(ids, more...)
		}
		if len(ids) == 0 {
			return r.usage("give at least one file ID (or - to read them from stdin)")
		}
		for _, id := range ids {
			if err := cmdutil.CheckUUID("file ID", id); err != nil {
				return r.p.UsageError(err)
			}
		}
		if *watch && r.g.CSV {
			return r.usage("--watch prints changes as they come; it does not combine with --csv")
		}
		conn, err := r.f.Connect()
		if err != nil {
			return r.fail(err)
		}
		c := conn.Client
		if *watch {
			return r.watch(ctx, c, ids, conn.Account.StuckAfter)
		}
		// 1000 IDs a request at the vault's 10 requests a minute: say so
		// when the budget makes it wait.
		ctx = api.WithWaitObserver(ctx, r.listProgress().observe)
		recs, err := c.GetFiles(ctx, ids)
		if err != nil {
			return r.fail(err)
		}
		failed := 0
		for _, f := range recs {
			if f.Value.Failed() {
				failed++
			}
		}
		var rc int
		if r.jsonOut() {
			rc = emitItems(r, recs, func(f api.Item[api.FileDetail]) []byte { return f.JSON })
		} else {
			t := r.table("FILE ID", "NAME", "STATUS", "TYPE", "DELETED")
			for _, it := range recs {
				f := it.Value
				st := filestatus.Word(f.ProcessingStatus)
				if f.Failed() {
					st = "error: " + f.Error
				}
				t.row(f.FileID, f.FileName, st, f.ContentType, r.atPtr(f.DeletedAt))
			}
			rc = r.done(t.flush())
		}
		if rc == ExitOK && failed > 0 {
			fmt.Fprintf(r.env.Stderr, "vaultdeck status: %d of %d file IDs were not found or not accessible\n", failed, len(recs))
			return ExitPartial
		}
		return rc
	})
	return c
}
