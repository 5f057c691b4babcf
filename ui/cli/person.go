package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

type personOptions struct {
	Email       string
	Section     string // --csv's part
	Since       string
	Offboarding bool
	Offline     bool
}

var personSections = []string{"reach", "created", "deleted", "activity"}

// person prints one person's report: from local data, then the fewest
// requests for what is missing (none with --offline).
func (r *runner) person(ctx context.Context, o personOptions) int {
	switch {
	case r.g.JSONL:
		return r.usage("person prints text, one JSON object with --json, or one section as CSV with --csv --section")
	case o.Section != "" && !r.g.CSV:
		return r.usage("--section chooses the part --csv prints; give --csv too")
	case r.g.CSV && !o.Offboarding && !slicesContains(personSections, o.Section):
		return r.usage("--csv prints one part: give --section %s", strings.Join(personSections, ", "))
	case o.Offboarding && (r.g.JSON || o.Section != ""):
		return r.usage("--offboarding prints its own CSV; leave out --json and --section")
	}
	now := time.Now()
	if r.env.Clock != nil {
		now = r.env.Clock.Now()
	}
	var opts person.Options
	if o.Since != "" {
		t, err := audit.ParseWhen(o.Since, now)
		if err != nil {
			return r.usage("--since: %v", err)
		}
		opts.Since = t
	}
	st, profile, err := r.journal()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	in := person.Local{Snapshots: st, Profile: profile, Cache: person.StoreCache{Store: st, Profile: profile}, Mirror: st}
	switch log, err := audit.MirrorLog(ctx, st, c); {
	case errors.Is(err, audit.ErrNoMirror):
	case err != nil:
		return r.fail(err)
	default:
		in.Log = log
	}
	rep, err := person.Read(ctx, in, o.Email, now, opts)
	if err != nil {
		return r.fail(err)
	}
	// A likely typo spends nothing: its close matches are the answer.
	if !o.Offline && !rep.LikelyTypo() {
		note := func(string) {}
		if r.stderrIsTerminal() {
			note = func(what string) { fmt.Fprintf(r.env.Stderr, "asking the service: %s\n", what) }
		}
		clock := func() time.Time { return time.Now() }
		if r.env.Clock != nil {
			clock = r.env.Clock.Now
		}
		if err := person.Fill(ctx, c, c, in, rep, clock, note); err != nil {
			return r.fail(err)
		}
	}
	if err := rep.Unknown(); err != nil {
		return r.fail(err)
	}
	switch {
	case o.Offboarding:
		return r.done(r.offboarding(rep))
	case r.g.JSON:
		return r.emitJSON(rep)
	case r.g.CSV:
		return r.done(r.personSection(rep, o.Section))
	}
	return r.done(r.personText(rep))
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sourceLine says where a part came from, or what fills it.
func sourceLine(s person.Source) string {
	if !s.Covered() {
		return "missing: " + s.Missing
	}
	return fmt.Sprintf("from the %s, as of %s", s.From, fmtWhen(s.AsOf))
}

func (r *runner) personText(rep *person.Report) error {
	w := r.env.Stdout
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
		if err := r.reachTable(rep).flush(); err != nil {
			return err
		}
	}
	cr := rep.Created
	fmt.Fprintf(w, "\nCREATED PROJECTS (%s)\n", sourceLine(cr.ProjectsSource))
	if cr.ProjectsSource.Covered() && len(cr.Projects) > 0 {
		t := r.table("PROJECT", "FILES", "CREATED", "PROJECT ID")
		for _, p := range cr.Projects {
			t.row(p.Name, strconv.FormatInt(int64(p.FilesCount), 10), fmtDay(p.CreatedAt.Time), p.ID)
		}
		if err := t.flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nCREATED CLIENT MATTERS (%s)\n", sourceLine(cr.MattersSource))
	if cr.MattersSource.Covered() && len(cr.Matters) > 0 {
		t := r.table("MATTER", "USERS", "EVENTS", "CREATED", "DELETED")
		for _, m := range cr.Matters {
			t.row(m.Name, strconv.FormatInt(int64(m.UserCount), 10), strconv.FormatInt(int64(m.TotalEvents), 10), fmtDay(m.CreatedAt.Time), fmtDay(m.DeletedAt.Time))
		}
		if err := t.flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nDELETED, STILL IN THE RECYCLE BIN (%s)\n", sourceLine(rep.Deleted.Source))
	if rep.Deleted.Covered() && len(rep.Deleted.Entries) > 0 {
		if err := r.deletedTable(rep).flush(); err != nil {
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
		login = fmtWhen(a.LastLogin.Time) + " from " + sanitize.Line(a.LastLogin.IP)
	}
	fmt.Fprintf(w, "%s; last login %s\n", plural.Count(a.Total, "entry"), login)
	fmt.Fprintf(w, "last 7 days: %s\nlast 30 days: %s\n", tallyLine(a.Last7), tallyLine(a.Last30))
	if len(a.Addresses) > 0 {
		t := r.table("ADDRESS", "FIRST SEEN", "LAST SEEN", "ENTRIES", "NEW")
		for _, ad := range a.Addresses {
			t.row(ad.IP, whenOr(ad.First), whenOr(ad.Last), strconv.Itoa(ad.Count), yes(ad.New))
		}
		if err := t.flush(); err != nil {
			return err
		}
	}
	if len(a.Latest) > 0 {
		fmt.Fprintln(w)
		return r.activityTable(rep).flush()
	}
	return nil
}

func (r *runner) reachTable(rep *person.Report) *table {
	sole := map[string]bool{}
	for _, g := range rep.Reach.SoleManage {
		sole[g.ProjectID] = true
	}
	t := r.table("PROJECT", "ACCESS", "ONLY MANAGE", "PROJECT ID")
	for _, g := range rep.Reach.Grants {
		t.row(g.ProjectName, g.AccessLevel, yes(sole[g.ProjectID]), g.ProjectID)
	}
	return t
}

func (r *runner) deletedTable(rep *person.Report) *table {
	now := rep.At
	t := r.table("PROJECT", "DELETED", "PURGE AT", "PURGES IN", "ENTRY ID")
	for _, e := range rep.Deleted.Entries {
		left, _ := purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, now)
		t.row(e.VaultProject.Name, whenOr(e.DeletedAt.Time), whenOr(e.RecycleBinPurgedScheduledAt.Time), left, e.ID)
	}
	return t
}

func (r *runner) activityTable(rep *person.Report) *table {
	t := r.table("TIME", "TYPE", "ADDRESS", "ENTRY ID")
	for _, e := range rep.Activity.Latest {
		t.row(whenOr(e.Time), e.Type, e.IP, e.ID)
	}
	return t
}

// personSection prints one part as CSV.
func (r *runner) personSection(rep *person.Report, section string) error {
	switch section {
	case "reach":
		return r.reachTable(rep).flush()
	case "deleted":
		return r.deletedTable(rep).flush()
	case "activity":
		return r.activityTable(rep).flush()
	}
	t := r.table("KIND", "NAME", "ID", "CREATED", "FILES", "USERS", "EVENTS", "DELETED")
	for _, p := range rep.Created.Projects {
		t.row("project", p.Name, p.ID, whenOr(p.CreatedAt.Time), strconv.FormatInt(int64(p.FilesCount), 10), "", "", "")
	}
	for _, m := range rep.Created.Matters {
		t.row("matter", m.Name, m.ID, whenOr(m.CreatedAt.Time), "", strconv.FormatInt(int64(m.UserCount), 10),
			strconv.FormatInt(int64(m.TotalEvents), 10), whenOr(m.DeletedAt.Time))
	}
	return t.flush()
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
	return fmtWhen(t)
}

// offboarding prints the checklist as CSV an admin ticks off (DONE is
// left empty), then what vaultdeck cannot do, as a last record and on
// stderr; a part that was missing is named on stderr.
func (r *runner) offboarding(rep *person.Report) error {
	r.g.CSV = true
	t := r.table("DONE", "KIND", "NAME", "ID", "ACTION", "DETAIL")
	for _, k := range person.Checklist(rep) {
		t.row("", k.Kind, k.Name, k.ID, k.Action, k.Detail)
	}
	t.row("", "note", "", "", person.CannotChangeAccess, "")
	for _, s := range rep.Missing() {
		fmt.Fprintf(r.env.Stderr, "vaultdeck person: the checklist is incomplete: %s\n", s.Missing)
	}
	fmt.Fprintln(r.env.Stderr, person.CannotChangeAccess)
	return t.flush()
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
