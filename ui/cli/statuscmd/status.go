// Package statuscmd is `vaultdeck status`: file details and processing
// status by ID, --watch until every file is settled, and --journal, every
// unfinished file of the profile's journaled uploads.
package statuscmd

import (
	"context"
	"fmt"
	"io"
	"maps"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Options are what `status` was asked and what it works with.
type Options struct {
	IO      *printer.Printer
	Connect func() (*factory.Connection, error)
	// Journal opens the upload journal (the caller closes it); Flags are
	// the globals, whose StuckAfter a typed --stuck-after sets.
	Journal func() (*store.Store, string, error)
	Flags   *account.Flags
	Clock   api.Clock // nil: the system's
	Now     func() time.Time

	Args      []string // file IDs, comma lists, or - for stdin
	Watch     bool
	InJournal bool   // --journal
	Group     string // with --journal: one of filestatus.Filters
}

// NewCmdStatus is the command; runF, when set, runs instead of Run.
func NewCmdStatus(f *factory.Factory, runF func(context.Context, *Options) int) *cobra.Command {
	o := &Options{IO: f.IO, Connect: f.Connect, Journal: f.OpenJournal, Flags: f.Flags, Clock: f.Clock, Now: f.Now}
	c := &cobra.Command{Use: "status FILE_ID... | -", Short: "show file details and processing status", Args: cobra.ArbitraryArgs, Long: "IDs as arguments, comma lists, or one per line on stdin with -; each may end @EPOCH_SECONDS, its upload time as a listing gave it (the console's C on File status writes them so). --watch polls until every file is ready, failed or missing; --journal lists every unfinished upload of the profile, across projects."}
	fs := c.Flags()
	fs.BoolVar(&o.Watch, "watch", false, "poll until every file is ready, failed or missing, printing changes (NDJSON with --json)")
	fs.BoolVar(&o.InJournal, "journal", false, "every unfinished file of the profile's journaled uploads, across projects")
	fs.Var(cmdutil.EnumFlag(&o.Group, filestatus.Filters), "group", "with --journal: only the files of triage group `G` ("+strings.Join(filestatus.Filters, ", ")+"), as the console's 1-5")
	stuckAfter := new(time.Duration)
	cmdutil.SettingFlag(fs, stuckAfter, "stuck-after", 30*time.Minute, "with --watch or --journal: a file processing longer than `D` is stuck")
	if runF == nil {
		runF = Run
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		// A typed --stuck-after joins the resolution as the console's does;
		// untyped, the profile's stuck-after setting (`vaultdeck config`)
		// wins over the default.
		if fs.Changed("stuck-after") {
			o.Flags.StuckAfter = *stuckAfter
		}
		o.Args = args
		return runF(ctx, o)
	})
	return c
}

// Run shows the files o names, watches them, or lists the journal's.
func Run(ctx context.Context, o *Options) int {
	p := o.IO
	if o.Watch && printer.RulesGiven(p) {
		// refused before the first look: the watch prints changes as they
		// come, no listing, and would run to its end to be refused there
		return p.Usage("--filter and --sort apply to listings; status --watch prints changes as they come, none: leave out --watch for the files' rows")
	}
	if o.InJournal {
		if len(o.Args) > 0 || o.Watch {
			return p.Usage("--journal takes no file IDs and no --watch: it lists the upload journal's unfinished files")
		}
		return runJournal(ctx, o)
	}
	if o.Group != "" {
		return p.Usage("--group picks among the upload journal's files: give --journal too")
	}
	var ids []string
	given := map[string]time.Time{} // ID@EPOCH: an upload time a listing gave (the console's C says them so)
	add := func(more []string, times map[string]time.Time) {
		ids = append(ids, more...)
		maps.Copy(given, times)
	}
	readStdin := false
	for _, a := range o.Args {
		if a == "-" {
			readStdin = true
			continue
		}
		for _, s := range cmdutil.SplitList(a) {
			add(filestatus.ParseArg(s))
		}
	}
	if readStdin {
		data, err := io.ReadAll(p.In())
		if err != nil {
			return p.Fail(fmt.Errorf("reading file IDs from stdin: %w", err))
		}
		add(filestatus.ParseArg(string(data)))
	}
	if len(ids) == 0 {
		return p.Usage("give at least one file ID (or - to read them from stdin)")
	}
	for _, id := range ids {
		if err := cmdutil.CheckUUID("file ID", id); err != nil {
			return p.UsageError(err)
		}
	}
	if o.Watch {
		if code, ok := p.Accept("--watch prints changes as they come; it does not combine with --csv", printer.Table, printer.JSON, printer.JSONL); !ok {
			return code
		}
	}
	conn, err := o.Connect()
	if err != nil {
		return p.Fail(err)
	}
	if o.Watch {
		return o.watch(ctx, conn.Client, ids, conn.Account.StuckAfter)
	}
	// 1000 IDs a request at the vault's 10 requests a minute: say so when
	// the budget makes it wait.
	recs, err := conn.Client.GetFiles(p.Watch(ctx), ids)
	if err != nil {
		return p.Fail(err)
	}
	failed := 0
	for _, f := range recs {
		if f.Value.Failed() {
			failed++
		}
	}
	if p.Is(printer.CSV) {
		times := o.uploadTimes(ids)
		maps.Copy(times, given)
		err = writeStatusCSV(p, ids, recs, times, o.Now(), conn.Account.StuckAfter)
	} else {
		err = listStatus(ctx, p, recs)
	}
	if err != nil {
		return p.Fail(err)
	}
	if failed > 0 {
		p.Note("%d of %d file IDs were not found or not accessible", failed, len(recs))
		return printer.ExitPartial
	}
	return printer.ExitOK
}

// stuckRule says what the stuck count was taken against: a person who set
// stuck-after in one place and sees "stuck 0" learns which threshold won.
func stuckRule(d time.Duration) string {
	return "(stuck: processing over " + cmdutil.ShortDuration(d) + ")"
}

// listStatus prints the answers as they came, in every format but CSV.
func listStatus(ctx context.Context, p *printer.Printer, recs []api.Item[api.FileDetail]) error {
	cells := p.Cells()
	_, err := printer.List(ctx, p, printer.Items(recs), printer.Listing[api.FileDetail]{
		Headers: []string{"FILE ID", "NAME", "STATUS", "TYPE", "DELETED"},
		Cells: func(f *api.FileDetail) []string {
			st := filestatus.Word(f.ProcessingStatus)
			if f.Failed() {
				st = "error: " + f.Error
			}
			return []string{f.FileID, f.FileName, st, f.ContentType, cells.APITimeOf(f.DeletedAt)}
		},
		Held: true,
	})
	return err
}

// writeStatusCSV writes the files' status records (ui/csvsafe/records),
// the console's e on :files of the same IDs: the answers folded into a
// tracker as the console folds its first poll (names cleaned for the
// screen as its are, the text as sent kept for the file), dated by the
// upload times the journal knows, so each ID is worded and dated alike
// (not found, no answer, replaced; upload or first seen), in the order
// given.
func writeStatusCSV(p *printer.Printer, ids []string, recs []api.Item[api.FileDetail], uploaded map[string]time.Time, now time.Time, stuckAfter time.Duration) error {
	tr := filestatus.NewTracker(ids, sanitize.Line)
	tr.SetUploaded(uploaded)
	tr.Apply(ids, api.Values(recs), now)
	rows := make([][]string, len(tr.Files))
	for i := range tr.Files {
		rows[i] = records.FileStatus(&tr.Files[i], now, stuckAfter)
	}
	return p.Show(printer.Value{Headers: records.FileStatusHeader(), Rows: rows}) // a Value: --filter and --sort apply
}

// uploadTimes are the upload times the journal holds of ids (by
// lower-case ID), as the console's :files reads them: a file uploaded
// through vaultdeck is dated from its upload, not from this read. Without
// a journal, none (the records say "first seen"); a damaged one is said.
func (o *Options) uploadTimes(ids []string) map[string]time.Time {
	none := map[string]time.Time{}
	if o.Journal == nil {
		return none
	}
	st, profile, err := o.Journal()
	if err != nil {
		return none // no local database: nothing was uploaded through it
	}
	defer st.Close()
	rows, err := []store.JournalFile(nil), st.CheckJournal()
	if err == nil {
		rows, err = st.FilesByID(profile, ids)
	}
	if err != nil {
		o.IO.Note("the upload journal could not be read (%v): the files are dated from this read, not their uploads", err)
		return none
	}
	_, times := filestatus.Confirmed(rows)
	return times // a map, never nil
}
