package accesscmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
)

// RunCrawl reads every project's users into a new snapshot, resuming an
// unfinished one; it paces itself by the vault budget: the global
// --max-rate (or the profile's max-rate) takes less, or more for a
// simulator on this machine only.
func RunCrawl(ctx context.Context, o *Options) int {
	p := o.IO
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	st, profile, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	line := &crawlLine{w: p.Err(), tty: p.StderrIsTerminal()}
	job := &access.Crawler{API: c, Store: st, Profile: profile, Progress: line.update}
	sn, err := job.Run(ctx)
	line.finish()
	if err != nil {
		if errors.Is(err, store.ErrAccessBusy) {
			return p.Fail(fmt.Errorf("%w (wait for it, or for its lease to lapse two minutes after it stopped)", err))
		}
		if errors.Is(err, store.ErrDamaged) {
			return p.Fail(err) // its remedy is its own: a crawl again would be refused again
		}
		left := ""
		if snaps, e := st.AccessSnapshots(profile); e == nil && len(snaps) > 0 && !snaps[0].Finished() {
			left = fmt.Sprintf("; %d of %s %s read and kept", snaps[0].Read+snaps[0].Carried, plural.Count(snaps[0].Projects, "project"), plural.Verb(snaps[0].Read+snaps[0].Carried, "is", "are"))
		}
		p.Note("%s%s; run `vaultdeck access crawl` again to resume", err.Error(), left)
		return printer.ExitPartial
	}
	return p.Done(p.Show(printer.Value{JSON: sn, Text: func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "snapshot %d: %s (%d read, %d unchanged since the last snapshot), %s, %s\n",
			sn.ID, plural.Count(sn.Projects, "project"), sn.Read, sn.Carried, plural.Count(sn.Grants, "grant"), plural.Count(sn.Requests, "request"))
		return err
	}}))
}

// snapshots opens the store for a query; queries never touch the network.
func (o *Options) snapshots() (*store.Store, string, error) { return o.Journal() }

// RunUser is the projects a user reaches. An address the snapshot does not
// name is an error with close matches, never "reaches no project" (a typo
// would read as an answer).
func RunUser(_ context.Context, o *Options) int {
	p := o.IO
	st, profile, err := o.snapshots()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	sn, grants, err := access.Lookup(st, profile, o.Snapshot, o.Email)
	if err != nil {
		return p.Fail(err)
	}
	// how each is reached comes from the cached projects listing (the
	// snapshot's users endpoint does not say): no request
	how, known, err := person.HowFromCache(person.StoreCache{Store: st, Profile: profile}, o.Email, grants)
	if err != nil {
		return p.Fail(err)
	}
	rows := make([][]string, len(grants))
	for i, g := range grants {
		h := how[g.ProjectID]
		if h == "" {
			h = "unknown"
		}
		rows[i] = []string{g.ProjectName, g.AccessLevel, h, g.ProjectID}
	}
	if !known {
		p.Note("how each project is reached (direct, inherited, owner) needs the projects listing: `vaultdeck person %s` reads and keeps it", o.Email)
	}
	return p.Done(p.Show(printer.Value{JSON: nonNil(grants), Aside: snapshotNote(sn),
		Headers: []string{"PROJECT", "ACCESS", "HOW", "PROJECT ID"}, Rows: rows}))
}

// RunProject is the users of a project.
func RunProject(_ context.Context, o *Options) int {
	p := o.IO
	st, profile, err := o.snapshots()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	sn, err := access.Pick(st, profile, o.Snapshot)
	if err != nil {
		return p.Fail(err)
	}
	grants, err := st.AccessGrants(sn.ID, store.AccessGrantFilter{ProjectID: o.ProjectID})
	if err != nil {
		return p.Fail(err)
	}
	if len(grants) == 0 {
		ps, err := st.AccessProjects(sn.ID)
		if err != nil {
			return p.Fail(err)
		}
		if !slices.ContainsFunc(ps, func(p store.AccessProject) bool { return p.ID == o.ProjectID }) {
			return p.Fail(fmt.Errorf("project %s is not in snapshot %d (deleted, or created after it)", o.ProjectID, sn.ID))
		}
	}
	rows := make([][]string, len(grants))
	for i, g := range grants {
		rows[i] = []string{g.Name, g.Email, g.AccessLevel, g.UserID}
	}
	return p.Done(p.Show(printer.Value{JSON: nonNil(grants), Aside: snapshotNote(sn),
		Headers: []string{"NAME", "EMAIL", "ACCESS", "USER ID"}, Rows: rows}))
}

// RunDiff is what changed between two snapshots.
func RunDiff(_ context.Context, o *Options) int {
	p := o.IO
	st, profile, err := o.snapshots()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	a, b, changes, err := access.DiffSnapshots(st, profile, o.Diff[0], o.Diff[1])
	if err != nil {
		return p.Fail(err)
	}
	rows := make([][]string, len(changes))
	for i := range changes {
		rows[i] = records.AccessDiff(&changes[i]) // the console's e on its changes tab too
	}
	return p.Done(p.Show(printer.Value{JSON: nonNil(changes),
		Aside:   fmt.Sprintf("changes from snapshot %d (%s) to %d (%s)", a.ID, printer.When(a.FinishedAt), b.ID, printer.When(b.FinishedAt)),
		Headers: records.AccessDiffHeader(), Rows: rows, Empty: "no access changed"}))
}

// RunSnapshots lists the snapshots kept.
func RunSnapshots(_ context.Context, o *Options) int {
	p := o.IO
	st, profile, err := o.snapshots()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	snaps, err := st.AccessSnapshots(profile)
	if err != nil {
		return p.Fail(err)
	}
	cells := p.Cells()
	rows := make([][]string, len(snaps))
	for i, s := range snaps {
		fin := cells.Unknown("unfinished") // a column of times holds times: one not yet known is empty in a CSV, as --json leaves it out
		if s.Finished() {
			fin = cells.Time(s.FinishedAt) // the title says the zone
		}
		rows[i] = []string{fmt.Sprint(s.ID), cells.Time(s.StartedAt), fin, fmt.Sprint(s.Projects), fmt.Sprint(s.Read), fmt.Sprint(s.Carried),
			fmt.Sprint(s.Pending), fmt.Sprint(s.Grants), fmt.Sprint(s.Requests)}
	}
	return p.Done(p.Show(printer.Value{JSON: nonNil(snaps),
		Headers: []string{"SNAPSHOT", "STARTED (UTC)", "FINISHED (UTC)", "PROJECTS", "READ", "UNCHANGED", "PENDING", "GRANTS", "REQUESTS"}, Rows: rows}))
}

// RunPeople lists a snapshot's people as the console's access view opens
// on them: each with the projects they reach and how many of those they
// manage, most projects first (access.People, the view's own summary).
func RunPeople(_ context.Context, o *Options) int {
	p := o.IO
	st, profile, err := o.snapshots()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	sn, err := access.Pick(st, profile, o.Snapshot)
	if err != nil {
		return p.Fail(err)
	}
	grants, err := st.AccessGrants(sn.ID, store.AccessGrantFilter{})
	if err != nil {
		return p.Fail(err)
	}
	people := access.People(grants)
	rows := make([][]string, len(people))
	for i, x := range people {
		rows[i] = []string{x.Name, x.Email, strconv.Itoa(x.Projects), strconv.Itoa(x.Manage), x.UserID}
	}
	return p.Done(p.Show(printer.Value{JSON: nonNil(people), Aside: snapshotNote(sn),
		Headers: []string{"NAME", "EMAIL", "PROJECTS", "MANAGE", "USER ID"}, Rows: rows}))
}

// snapshotNote says which snapshot answered and how old it is.
func snapshotNote(sn store.AccessSnapshot) string {
	return fmt.Sprintf("from access snapshot %d, finished %s", sn.ID, printer.When(sn.FinishedAt))
}

// nonNil makes an empty result print as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// crawlLine reports a crawl's progress on stderr: one redrawn line on a
// terminal; otherwise (cron, a log) a line after the listing and after
// every tenth project read.
type crawlLine struct {
	w     io.Writer
	tty   bool
	mu    sync.Mutex
	drawn bool
	p     access.Progress
}

func (l *crawlLine) update(p access.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.p = p
	if l.tty {
		fmt.Fprintf(l.w, "\r\x1b[K%s", crawlText(p))
		l.drawn = true
		return
	}
	if p.Read == 0 || p.Read%10 == 0 || p.Read == p.ToRead {
		fmt.Fprintf(l.w, "vaultdeck access crawl: %s\n", crawlText(p))
	}
}

func (l *crawlLine) finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drawn {
		fmt.Fprintln(l.w)
	}
}

func crawlText(p access.Progress) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%s", p.Done, plural.Count(p.Total, "project"))
	if p.Carried > 0 {
		fmt.Fprintf(&b, " (%d unchanged)", p.Carried)
	}
	fmt.Fprintf(&b, ", read %d/%d this run, %s", p.Read, p.ToRead, plural.Count(p.Requests, "request"))
	if p.Read < p.ToRead {
		fmt.Fprintf(&b, ", ETA %s", p.ETA.Round(time.Second))
	}
	return b.String()
}
