// Package personcmd is `vaultdeck person EMAIL`: one person, whole
// (api/person), for offboarding and investigations.
package personcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Options are what `person` was asked and what it works with.
type Options struct {
	IO      *printer.Printer
	Client  func() (*api.Client, error)
	Journal func() (*store.Store, string, error) // the profile's database: snapshots, cache, mirror
	Clock   api.Clock                            // nil: the system's

	Email       string
	Section     string // --csv's part
	Since       string
	Offboarding bool
	Offline     bool
	// Plan (with Offboarding): the removal plan of access plan --remove,
	// with NewManager where nobody else would manage, written to Out.
	Plan       bool
	NewManager string
	Out        string
	Now        func() time.Time
	// PlanRemoval makes that plan: access plan's own, handed over by the
	// command tree, since one command package imports no other
	// (TestCommandsImportNoCommand)
	PlanRemoval func(context.Context, *Options) int
}

var sections = []string{"reach", "created", "deleted", "activity"}

// NewCmdPerson is the command; runF, when set, runs instead of Run;
// planRemoval is --offboarding --plan's (access plan --remove).
func NewCmdPerson(f *factory.Factory, runF, planRemoval func(context.Context, *Options) int) *cobra.Command {
	o := &Options{IO: f.IO, Client: f.Client, Journal: f.OpenJournal, Clock: f.Clock, Now: f.Now, PlanRemoval: planRemoval}
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
acts on, as CSV; --offboarding --plan makes the plan that removes their direct
shares (access plan --remove: projects only they manage need --new-manager).
An address nothing names is an error, with close matches.`,
		Args: cmdutil.EmailArg}
	fs := c.Flags()
	fs.StringVar(&o.Section, "section", "", "with --csv: the `PART` to print: reach, created, deleted or activity")
	fs.StringVar(&o.Since, "since", "", "activity: list every entry from `T` (2026-11-01, RFC 3339, or an age such as 36h or 7d) instead of the latest 20")
	fs.BoolVar(&o.Offboarding, "offboarding", false, "print the offboarding checklist as CSV (sole MANAGE projects, every project reached and how, own projects, matters in use, deletions in the bin, logins from a new address)")
	fs.BoolVar(&o.Offline, "offline", false, "send no request: parts nothing local covers are reported missing")
	fs.BoolVar(&o.Plan, "plan", false, "with --offboarding: make the plan that removes their direct shares (as access plan --remove does), read against the service now")
	fs.StringVar(&o.NewManager, "new-manager", "", "with --plan: give `EMAIL` MANAGE where nobody else would manage")
	fs.StringVar(&o.Out, "out", "", "with --plan: write the plan to `FILE` for `vaultdeck access apply`")
	_ = c.RegisterFlagCompletionFunc("section", cmdutil.Fixed(sections))
	if runF == nil {
		runF = Run
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		o.Email = strings.TrimSpace(args[0])
		return runF(ctx, o)
	})
	return c
}

// Run prints one person's report: from local data, then the fewest
// requests for what is missing (none with --offline).
func Run(ctx context.Context, o *Options) int {
	p := o.IO
	if code, ok := p.Accept("person prints text, one JSON object with --json (on one line with --jsonl), or one section as CSV with --csv --section", printer.Table, printer.JSON, printer.JSONL, printer.CSV); !ok {
		return code
	}
	csv := p.Is(printer.CSV) // --section and --offboarding are parts of a CSV
	switch {
	case o.Section != "" && !csv:
		return p.Usage("--section chooses the part --csv prints; give --csv too")
	case csv && !o.Offboarding && !slices.Contains(sections, o.Section):
		return p.Usage("--csv prints one part: give --section %s", strings.Join(sections, ", "))
	case (o.Plan || o.NewManager != "" || o.Out != "") && !o.Offboarding:
		return p.Usage("--plan, --new-manager and --out go with --offboarding")
	case (o.NewManager != "" || o.Out != "") && !o.Plan:
		return p.Usage("--new-manager and --out go with --plan")
	case o.Plan && o.PlanRemoval == nil:
		return p.Fail(errors.New("this build's person command was given no access planner"))
	case o.Plan:
		// the removal plan is access plan's own, read against the service now
		return o.PlanRemoval(ctx, o)
	case o.Offboarding && (p.Is(printer.JSON) || o.Section != ""):
		return p.Usage("--offboarding prints its own CSV; leave out --json and --section")
	}
	now := time.Now()
	if o.Clock != nil {
		now = o.Clock.Now()
	}
	var opts person.Options
	if o.Since != "" {
		t, err := audit.ParseWhen(o.Since, now)
		if err != nil {
			return p.Usage("--since: %v", err)
		}
		opts.Since = t
	}
	st, profile, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	in := person.Local{Snapshots: st, Profile: profile, Cache: person.StoreCache{Store: st, Profile: profile}, Mirror: st}
	switch log, err := audit.MirrorLog(ctx, st, c); {
	case errors.Is(err, audit.ErrNoMirror):
	case err != nil:
		return p.Fail(err)
	default:
		in.Log = log
	}
	rep, err := person.Read(ctx, in, o.Email, now, opts)
	if err != nil {
		return p.Fail(err)
	}
	// A likely typo spends nothing: its close matches are the answer.
	if !o.Offline && !rep.LikelyTypo() {
		note := func(string) {}
		if p.StderrIsTerminal() {
			note = func(what string) { fmt.Fprintf(p.Err(), "asking the service: %s\n", what) }
		}
		clock := func() time.Time { return time.Now() }
		if o.Clock != nil {
			clock = o.Clock.Now
		}
		if err := person.Fill(ctx, c, c, in, rep, clock, note); err != nil {
			return p.Fail(err)
		}
	}
	if err := rep.Unknown(); err != nil {
		return p.Fail(err)
	}
	if o.Offboarding {
		return p.Done(offboarding(p, rep))
	}
	// the part as CSV: the records the console's e writes on :person
	headers, rows := records.PersonPart(rep, o.Section)
	return p.Done(p.Show(printer.Value{JSON: rep, Headers: headers, Rows: rows, Text: func(w io.Writer) error { return text(w, rep) }}))
}

// sourceLine says where a part came from, or what fills it.
func sourceLine(s person.Source) string {
	if !s.Covered() {
		return "missing: " + s.Missing
	}
	return fmt.Sprintf("from the %s, as of %s", s.From, printer.When(s.AsOf))
}

// text is the report for people.
func text(w io.Writer, rep *person.Report) error {
	who := sanitize.Line(rep.Email)
	if rep.Name != "" {
		who += " (" + sanitize.Line(rep.Name) + ")"
	}
	fmt.Fprintln(w, who)
	rc := rep.Reach
	fmt.Fprintf(w, "\nREACH (%s)\n", sourceLine(rc.Source))
	if rc.Covered() {
		manage := 0
		for _, g := range rc.Grants {
			if strings.EqualFold(g.AccessLevel, "MANAGE") {
				manage++
			}
		}
		fmt.Fprintln(w, reachLine(len(rc.Grants), manage, len(rc.SoleManage)))
		if err := table(w, reachRows(rep)); err != nil {
			return err
		}
	}
	cr := rep.Created
	fmt.Fprintf(w, "\nCREATED PROJECTS (%s)\n", sourceLine(cr.ProjectsSource))
	if cr.ProjectsSource.Covered() && len(cr.Projects) > 0 {
		rows := [][]string{{"PROJECT", "FILES", "CREATED", "PROJECT ID"}}
		for _, p := range cr.Projects {
			rows = append(rows, []string{p.Name, p.FilesCount.String(), fmtDay(p.CreatedAt.Time), p.ID})
		}
		if err := table(w, rows); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nCREATED CLIENT MATTERS (%s)\n", sourceLine(cr.MattersSource))
	if cr.MattersSource.Covered() && len(cr.Matters) > 0 {
		rows := [][]string{{"MATTER", "USERS", "EVENTS", "CREATED", "DELETED"}}
		for _, m := range cr.Matters {
			rows = append(rows, []string{m.Name, m.UserCount.String(), m.TotalEvents.String(), fmtDay(m.CreatedAt.Time), fmtDay(m.DeletedAt.Time)})
		}
		if err := table(w, rows); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nDELETED, STILL IN THE RECYCLE BIN (%s)\n", sourceLine(rep.Deleted.Source))
	if rep.Deleted.Covered() && len(rep.Deleted.Entries) > 0 {
		if err := table(w, deletedRows(rep)); err != nil {
			return err
		}
	}
	a := rep.Activity
	fmt.Fprintf(w, "\nACTIVITY (%s)\n", sourceLine(a.Source))
	if !a.Covered() {
		return nil
	}
	login := "none in the mirror"
	if a.LastLogin != nil {
		login = printer.When(a.LastLogin.Time) + " from " + sanitize.Line(a.LastLogin.IP)
	}
	fmt.Fprintf(w, "%s; last login %s\n", plural.Count(a.Total, "entry"), login)
	fmt.Fprintf(w, "last 7 days: %s\nlast 30 days: %s\n", tallyLine(a.Last7), tallyLine(a.Last30))
	if len(a.Addresses) > 0 {
		rows := [][]string{{"ADDRESS", "FIRST SEEN", "LAST SEEN", "ENTRIES", "NEW"}}
		for _, ad := range a.Addresses {
			rows = append(rows, []string{ad.IP, whenOr(ad.First), whenOr(ad.Last), strconv.Itoa(ad.Count), yes(ad.New)})
		}
		if err := table(w, rows); err != nil {
			return err
		}
	}
	if len(a.Latest) > 0 {
		fmt.Fprintln(w)
		return table(w, activityRows(rep))
	}
	return nil
}

// table prints rows (the header first) aligned, as every table.
func table(w io.Writer, rows [][]string) error {
	return printer.Aligned(w, func(row func([]string)) error {
		for _, r := range rows {
			row(r)
		}
		return nil
	})
}

// The report's parts as rows, the header first: the text's tables (the
// CSV's are records.PersonPart, RFC 3339 times).

func reachRows(rep *person.Report) [][]string {
	sole := map[string]bool{}
	for _, g := range rep.Reach.SoleManage {
		sole[g.ProjectID] = true
	}
	rows := [][]string{{"PROJECT", "ACCESS", "ONLY MANAGE", "PROJECT ID"}}
	for _, g := range rep.Reach.Grants {
		rows = append(rows, []string{g.ProjectName, g.AccessLevel, yes(sole[g.ProjectID]), g.ProjectID})
	}
	return rows
}

func deletedRows(rep *person.Report) [][]string {
	now := rep.At
	rows := [][]string{{"PROJECT", "DELETED", "PURGE AT", "PURGES IN", "ENTRY ID"}}
	for _, e := range rep.Deleted.Entries {
		left, _ := purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, now)
		rows = append(rows, []string{e.VaultProject.Name, whenOr(e.DeletedAt.Time), whenOr(e.RecycleBinPurgedScheduledAt.Time), left, e.ID})
	}
	return rows
}

func activityRows(rep *person.Report) [][]string {
	rows := [][]string{{"TIME", "TYPE", "ADDRESS", "ENTRY ID"}}
	for _, e := range rep.Activity.Latest {
		rows = append(rows, []string{whenOr(e.Time), e.Type, e.IP, e.ID})
	}
	return rows
}

func tallyLine(ts []person.TypeCount) string {
	if len(ts) == 0 {
		return "nothing"
	}
	parts := make([]string, 0, len(ts))
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%s %d", sanitize.Line(t.Type), t.Count))
	}
	return strings.Join(parts, ", ")
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// fmtDay is a date, or "" for none (fmtWhen of a zero time would print year 1).
func fmtDay(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

// whenOr is fmtWhen, or "" for no time.
func whenOr(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return printer.When(t)
}

// offboarding prints the checklist as CSV an admin ticks off (DONE is
// left empty), then what vaultdeck cannot do, as a last record and on
// stderr; a part that was missing is named on stderr.
func offboarding(p *printer.Printer, rep *person.Report) error {
	var rows [][]string
	for _, k := range person.Checklist(rep) {
		rows = append(rows, []string{"", k.Kind, k.Name, k.ID, k.Action, k.Detail})
	}
	rows = append(rows, []string{"", "note", "", "", person.ChangeAccess, ""})
	err := p.WriteCSV([]string{"DONE", "KIND", "NAME", "ID", "ACTION", "DETAIL"}, rows)
	for _, s := range rep.Missing() {
		fmt.Fprintf(p.Err(), "vaultdeck person: the checklist is incomplete: %s\n", s.Missing)
	}
	fmt.Fprintln(p.Err(), person.ChangeAccess)
	return err
}

// reachLine sums a person's reach: projects, MANAGE, and the projects only
// they manage, which someone must take over if they leave.
func reachLine(projects, manage, sole int) string {
	s := fmt.Sprintf("%s, %d with MANAGE; ", plural.Count(projects, "project"), manage)
	if sole == 0 {
		return s + "the only MANAGE on none"
	}
	return s + fmt.Sprintf("the only MANAGE on %d (someone must take %s over if they leave)", sole, plural.Verb(sole, "it", "these"))
}
