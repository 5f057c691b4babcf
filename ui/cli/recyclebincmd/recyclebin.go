// Package recyclebincmd is `vaultdeck recycle-bin`: the deleted projects
// awaiting purge, filtered as purge.Filter says, and a monitoring probe.
package recyclebincmd

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Options are what `recycle-bin` was asked and what it works with.
type Options struct {
	IO     *printer.Printer
	Client func() (*api.Client, error)
	Now    func() time.Time

	Filter purge.Filter
	// Check makes the listing a monitoring probe: a Nagios-style line
	// first, exit 3 when something purges within the window.
	Check bool
	// ByDeleter lists the bin grouped by who deleted (the console's b).
	ByDeleter bool
}

// NewCmdRecycleBin is the command; runF, when set, runs instead of Run
// (tests).
func NewCmdRecycleBin(f *factory.Factory, runF func(context.Context, *Options) int) *cobra.Command {
	o := &Options{IO: f.IO, Client: f.Client, Now: f.Now}
	c := &cobra.Command{Use: "recycle-bin", Short: "list deleted projects awaiting purge", Args: cmdutil.NoArgs}
	fs := c.Flags()
	for _, fl := range purge.FilterFlags() {
		fs.Var(filterValue{&o.Filter, fl.Name}, fl.Name, fl.Usage)
	}
	fs.BoolVar(&o.Check, "check", false, "monitoring probe: a Nagios-style summary line first; exit 0 when nothing purges within the window (default 7d), 3 when something does")
	fs.BoolVar(&o.ByDeleter, "by-deleter", false, "one row a person who deleted: how many projects, how many purge within the window (--purging-within, default 7d), the next purge; as the console's b shows")
	if runF == nil {
		runF = Run
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return runF(ctx, o) })
	return c
}

// filterValue is one of the filter's flags, read by purge.Filter.Set
// while parsing (a saved view with a bad window is refused at its line).
type filterValue struct {
	f    *purge.Filter
	name string
}

func (v filterValue) String() string {
	if v.f == nil {
		return ""
	}
	return v.f.Get(v.name)
}
func (v filterValue) Set(s string) error { return v.f.Set(v.name, s) }
func (v filterValue) Type() string {
	if v.name == purge.FlagWithin {
		return "window"
	}
	return "string"
}

// Run lists the bin. With --json each entry is printed as it arrives (the
// server's own bytes, decoded only for a local filter), with --csv each
// record, so memory stays flat however large the bin. The table holds its
// entries to order them: newest deletion first, the console's order (and
// the service's, so every format agrees). With a purge window every format
// holds the entries it keeps and lists them soonest purge first (SortAll):
// the order is what the window says; what it holds is bounded (api.Held).
func Run(ctx context.Context, o *Options) int {
	p := o.IO
	if err := o.Filter.Check(); err != nil {
		return p.UsageError(err)
	}
	if o.ByDeleter && (o.Check || o.Filter.DeletedBy != "") {
		return p.UsageError(fmt.Errorf("--by-deleter groups every deleter: it does not combine with --check or --deleted-by"))
	}
	if o.Check {
		if code, ok := p.Accept("--check prints the probe's text; it does not combine with --json, --jsonl or --csv", printer.Table); !ok {
			return code
		}
		if o.Filter.Within == 0 {
			o.Filter.Within = purge.Soon
		}
	}
	c, err := o.Client()
	if err != nil {
		return o.failed(err)
	}
	now, f := o.Now(), o.Filter
	if o.ByDeleter {
		return runByDeleter(ctx, o, c, now)
	}
	overdue := 0
	unknown := 0 // kept entries whose purge time is invalid: within the window or not, no one can say
	cells := p.Cells()
	l := printer.Listing[api.RecycleBinEntry]{
		Headers: []string{"NAME", "PROJECT ID", "FILES", "DELETED (UTC)", "PURGE SCHEDULED (UTC)", "PURGE IN", "DELETED BY"},
		Cells: func(e *api.RecycleBinEntry) []string {
			purgeIn, _ := purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, now)
			if e.RecycleBinPurgedScheduledAt.Invalid() {
				purgeIn = "invalid"
			}
			return []string{e.VaultProject.Name, e.ResourceID, e.VaultProject.FilesCount.String(),
				cells.APITime(e.DeletedAt), cells.APITime(e.RecycleBinPurgedScheduledAt), purgeIn, e.DeletedByUserEmail}
		},
		// The CSV is the bin's record, the console's `e` too: its columns
		// in the console's order, its cells (ui/csvsafe/records).
		CSVHeaders: records.BinHeader(),
		CSVCells:   func(e *api.RecycleBinEntry) []string { return records.Bin(e, now) },
		Sort: func(a, b *api.RecycleBinEntry) int {
			if f.Within > 0 { // soonest purge first: what needs a decision comes first
				return a.RecycleBinPurgedScheduledAt.Time.Compare(b.RecycleBinPurgedScheduledAt.Time)
			}
			return b.DeletedAt.Time.Compare(a.DeletedAt.Time) // undated (zero) last
		},
		SortAll: f.Within > 0, // a window's entries are few, and soonest first is what they say
		// --json is one array of the entries, as every listing's is (gh's
		// convention; --jq sees the same array): the service's envelope
		// and its total are not printed, the table's count line says it.
		Head: func(w io.Writer, _ api.Summary, kept int) error {
			if !o.Check {
				return nil
			}
			line := purgeSummary(kept-unknown, overdue, f.Within)
			if kept == unknown && unknown > 0 { // nothing known to purge, but not known not to: the probe cannot say OK
				line = fmt.Sprintf("PURGE UNKNOWN - %s an invalid purge time | purging=0;;; overdue=0;;;", plural.Count(unknown, "project has", "projects have"))
			}
			_, err := io.WriteString(w, line+"\n")
			return err
		},
		Foot: func(w io.Writer, s api.Summary, kept int) error {
			_, err := fmt.Fprintln(w, binFooter(kept-unknown, overdue, s.Total, f.Within))
			return err
		},
	}
	var repeats api.BinRepeats
	if f.Local() {
		l.Keep = func(e *api.RecycleBinEntry) bool {
			if !repeats.First(e) {
				return false // a deletion listed again: counted once, named below
			}
			if f.Within > 0 && e.RecycleBinPurgedScheduledAt.Invalid() && (f.DeletedBy == "" || e.DeletedByUserEmail == f.DeletedBy) {
				unknown++ // it may purge within the window: shown, and said below
				return true
			}
			in, late := f.Keep(e, now)
			if in && late {
				overdue++
			}
			return in
		}
	}
	listed, err := printer.List(ctx, p, shownFields{c.RecycleBin(f.Query())}, l)
	for _, line := range repeats.Said() {
		p.Note("%s", line)
	}
	if unknown > 0 {
		p.Note("%s an invalid purge time (shown, not counted above): whether %s within %s no one can say; check %s in the workspace's recycle bin",
			plural.Count(unknown, "entry has", "entries have"), plural.Verb(unknown, "it purges", "they purge"), purge.FormatWindow(f.Within), plural.Verb(unknown, "it", "them"))
	}
	if err != nil {
		return o.failed(err)
	}
	if o.Check && listed.Kept > 0 {
		return printer.ExitPartial
	}
	return printer.ExitOK
}

// failed reports an error; a probe also says UNKNOWN on stdout, the line a
// monitoring agent reads.
func (o *Options) failed(err error) int {
	if o.Check {
		fmt.Fprintf(o.IO.Out(), "PURGE UNKNOWN - the recycle bin could not be read: %s\n", sanitize.Line(err.Error()))
	}
	return o.IO.Fail(err)
}

// binFooter is the count line under the table.
func binFooter(n, overdue int, total api.Int, within time.Duration) string {
	of := total.String()
	if !total.Valid() {
		of = "an invalid total" // the bin's own count, which no JSON output carries
	}
	if within == 0 {
		return fmt.Sprintf("%d of %s shown", n, of)
	}
	return fmt.Sprintf("%d of %s purge within %s (%d overdue)", n, of, purge.FormatWindow(within), overdue)
}

// purgeSummary is the probe's first line in the Nagios plugin format
// (status text, then performance data after a |), which Nagios, Icinga and
// cron mail read as is.
func purgeSummary(n, overdue int, within time.Duration) string {
	w := purge.FormatWindow(within)
	perf := fmt.Sprintf(" | purging=%d;;; overdue=%d;;;", n, overdue)
	if n == 0 {
		return "PURGE OK - no project purges within " + w + perf
	}
	return fmt.Sprintf("PURGE WARNING - %s %s within %s (%d overdue)%s", plural.Count(n, "project"), plural.Verb(n, "purges", "purge"), w, overdue, perf)
}
