// Package auditcmd is `vaultdeck audit`: the log queried (from the local
// mirror where it reaches), `audit sync` into the mirror, `audit follow`
// as JSON Lines, `audit stats`; and the service's audit evidence of what
// vaultdeck did, which the matters and uploads commands print beside their
// receipts and runs.
package auditcmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
)

// QueryOptions are what `audit` was asked and what it works with.
type QueryOptions struct {
	IO     *printer.Printer
	Client func() (*api.Client, error)
	Store  func() (*store.Store, error)
	Clock  api.Clock // nil: the system's

	Since, Until string // a date (2026-11-01), a time (RFC 3339), or an age (36h, 7d); "" unbounded
	Type         string // log type, exactly
	User         string // e-mail address
	IP           string
	Grep         string // text anywhere in an entry's JSON
	Limit        int    // 0: all
	// Newest and Oldest choose the order; with neither, newest first
	// unless Since is given (a question from a time on reads forward).
	Newest, Oldest bool
	// HideOwnReads leaves out the token's user's own reads of the log (one
	// whoami names the user): the console's audit view hides them until h,
	// and its equivalent command must list the same rows.
	HideOwnReads bool
}

// NewCmdAudit is `audit` with its subcommands sync, follow and stats;
// runF, when set, runs instead of RunQuery.
func NewCmdAudit(f *factory.Factory, runF func(context.Context, *QueryOptions) int) *cobra.Command {
	o := &QueryOptions{IO: f.IO, Client: f.Client, Store: f.Store, Clock: f.Clock}
	c := &cobra.Command{
		Use:   "audit",
		Short: "the audit log: query it (from the local mirror where it reaches), sync the mirror, follow it as JSON Lines",
		Long: `Without a subcommand, audit lists entries, newest first (with --since, or
--oldest, oldest first): from the local mirror where it covers the range asked
(run ` + "`vaultdeck audit sync`" + ` first), from the service otherwise, saying on
stderr which. Without a mirror, newest first is read as the console reads it:
searches back in time (with --type, from the type's latest entry), paced
within the audit budget.
--type is asked of the service and checked here as well. The table's columns
are sized from the first page and kept for the pages after it.`,
		Args: cmdutil.NoArgs,
	}
	fs := c.Flags()
	fs.StringVar(&o.Since, "since", "", "entries at or after `T`: 2026-11-01, 2026-11-01T09:30:00Z, or an age such as 36h or 7d")
	fs.StringVar(&o.Until, "until", "", "entries before `T` (same forms as --since)")
	fs.StringVar(&o.Type, "type", "", "only entries of log type `T` (e.g. auth:login)")
	fs.StringVar(&o.User, "user", "", "only entries of the user with e-mail `EMAIL`")
	fs.StringVar(&o.IP, "ip", "", "only entries from address `ADDR`")
	fs.StringVar(&o.Grep, "grep", "", "only entries whose JSON contains `TEXT` (ignoring case)")
	fs.IntVar(&o.Limit, "limit", 100, "show at most `N` entries (0: all)")
	fs.BoolVar(&o.Newest, "newest", false, "newest first (the default without --since; with --since, back to it)")
	fs.BoolVar(&o.HideOwnReads, "hide-own-reads", false, "leave out this token's user's own reads of the log (api:audit_log_fetch), as the console's audit view does until h")
	fs.BoolVar(&o.Oldest, "oldest", false, "oldest first (the default with --since; without it, from the log's first entry)")
	if runF == nil {
		runF = RunQuery
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return runF(ctx, o) })
	c.AddCommand(NewCmdSync(f, nil), NewCmdFollow(f, nil), NewCmdStats(f, nil))
	return c
}

// newestFirst says o lists newest first: asked for, or the default
// without --since (an admin's first question is what happened recently).
func (o *QueryOptions) newestFirst() bool {
	return o.Newest || (!o.Oldest && strings.TrimSpace(o.Since) == "")
}

// now is the injected clock's time, or the machine's.
func now(c api.Clock) time.Time {
	if c != nil {
		return c.Now()
	}
	return time.Now()
}

// RunQuery answers o from the mirror where it covers the range, from the
// service otherwise, and says which on a terminal's stderr.
func RunQuery(ctx context.Context, o *QueryOptions) int {
	p := o.IO
	if o.Limit < 0 {
		return p.Usage("--limit must be 0 or more")
	}
	if o.Newest && o.Oldest {
		return p.Usage("--newest and --oldest ask for opposite orders: give one")
	}
	at := now(o.Clock)
	f := store.AuditFilter{Type: strings.TrimSpace(o.Type), User: strings.TrimSpace(o.User), IP: strings.TrimSpace(o.IP),
		Grep: o.Grep, Limit: o.Limit, Newest: o.newestFirst()}
	var err error
	if f.Since, err = audit.ParseWhen(o.Since, at); err != nil {
		return p.Usage("--since: %v", err)
	}
	if f.Until, err = audit.ParseWhen(o.Until, at); err != nil {
		return p.Usage("--until: %v", err)
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		return p.Usage("--since (%s) must be before --until (%s)", printer.UTCSeconds(f.Since), printer.UTCSeconds(f.Until))
	}
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	q := &query{job: &audit.Job{Svc: c, Clock: o.Clock}, f: f}
	if o.HideOwnReads {
		w, err := c.WhoAmI(ctx)
		if err != nil {
			return p.Fail(fmt.Errorf("--hide-own-reads needs the token's user: %w", err))
		}
		q.self, q.limit, q.f.Limit = w.Email, f.Limit, 0 // the limit counts what is shown
	}
	if st, err := o.Store(); err == nil {
		defer st.Close()
		q.job.Mirror = st
	}
	cells := p.Cells()
	_, err = printer.List(ctx, p, q, printer.Listing[entry]{
		Headers: []string{"TIME (UTC)", "TYPE", "USER", "IP", "ID"},
		Cells: func(x *entry) []string {
			e := &x.AuditEntry
			return []string{cells.Seconds(e.Time), e.Type, e.User, e.IP, e.ID}
		},
		// the console's e writes this record too (ui/csvsafe/records)
		CSVHeaders: records.AuditHeader(),
		CSVCells:   func(x *entry) []string { return records.Audit(&x.AuditEntry) },
	})
	if err != nil {
		return p.Fail(err)
	}
	// Where the answer came from, for the person reading it; a pipe gets
	// nothing extra on stderr after a success, like every listing.
	if !q.stopped && p.StderrIsTerminal() {
		p.Note("%s", q.answer)
	}
	return printer.ExitOK
}
