package cli

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
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

type accessQueryOptions struct {
	Email     string
	ProjectID string
	Snapshot  int64 // 0: the last finished
}

type accessDiffOptions struct{ Old, New int64 }

// accessCrawl paces itself by the vault budget: the global --max-rate (or
// the profile's max-rate) takes less, or more for a simulator on this
// machine only.
func (r *runner) accessCrawl(ctx context.Context) int {
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	st, profile, err := r.journal()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	line := &crawlLine{w: r.env.Stderr, tty: r.stderrIsTerminal()}
	job := &access.Crawler{API: c, Store: st, Profile: profile, Progress: line.update}
	sn, err := job.Run(ctx)
	line.finish()
	if err != nil {
		if errors.Is(err, store.ErrAccessBusy) {
			return r.fail(fmt.Errorf("%w (wait for it, or for its lease to lapse two minutes after it stopped)", err))
		}
		left := ""
		if snaps, e := st.AccessSnapshots(profile); e == nil && len(snaps) > 0 && !snaps[0].Finished() {
			left = fmt.Sprintf("; %d of %s %s read and kept", snaps[0].Read+snaps[0].Carried, plural.Count(snaps[0].Projects, "project"), plural.Verb(snaps[0].Read+snaps[0].Carried, "is", "are"))
		}
		fmt.Fprintf(r.env.Stderr, "vaultdeck %s: %s%s; run `vaultdeck access crawl` again to resume\n", r.cmd, oneLine(err.Error()), left)
		return ExitPartial
	}
	if r.jsonOut() {
		return r.emitJSON(sn)
	}
	fmt.Fprintf(r.env.Stdout, "snapshot %d: %s (%d read, %d unchanged since the last snapshot), %s, %s\n",
		sn.ID, plural.Count(sn.Projects, "project"), sn.Read, sn.Carried, plural.Count(sn.Grants, "grant"), plural.Count(sn.Requests, "request"))
	return ExitOK
}

// snapshots opens the store for a query; queries never touch the network.
func (r *runner) snapshots() (access.Snapshots, string, func(), error) {
	st, profile, err := r.journal()
	if err != nil {
		return nil, "", nil, err
	}
	return st, profile, func() { st.Close() }, nil
}

func (r *runner) accessUser(o accessQueryOptions) int {
	st, profile, done, err := r.snapshots()
	if err != nil {
		return r.fail(err)
	}
	defer done()
	// An address the snapshot does not name is an error with close
	// matches, never "reaches no project" (a typo would read as an answer).
	sn, grants, err := access.Lookup(st, profile, o.Snapshot, o.Email)
	if err != nil {
		return r.fail(err)
	}
	if r.jsonOut() {
		return r.emitJSON(nonNil(grants))
	}
	r.snapshotNote(sn)
	t := r.table("PROJECT", "ACCESS", "PROJECT ID")
	for _, g := range grants {
		t.row(g.ProjectName, g.AccessLevel, g.ProjectID)
	}
	return r.done(t.flush())
}

func (r *runner) accessProject(o accessQueryOptions) int {
	st, profile, done, err := r.snapshots()
	if err != nil {
		return r.fail(err)
	}
	defer done()
	sn, err := access.Pick(st, profile, o.Snapshot)
	if err != nil {
		return r.fail(err)
	}
	grants, err := st.AccessGrants(sn.ID, store.AccessGrantFilter{ProjectID: o.ProjectID})
	if err != nil {
		return r.fail(err)
	}
	if len(grants) == 0 {
		ps, err := st.AccessProjects(sn.ID)
		if err != nil {
			return r.fail(err)
		}
		if !slices.ContainsFunc(ps, func(p store.AccessProject) bool { return p.ID == o.ProjectID }) {
			return r.fail(fmt.Errorf("project %s is not in snapshot %d (deleted, or created after it)", o.ProjectID, sn.ID))
		}
	}
	if r.jsonOut() {
		return r.emitJSON(nonNil(grants))
	}
	r.snapshotNote(sn)
	t := r.table("NAME", "EMAIL", "ACCESS", "USER ID")
	for _, g := range grants {
		t.row(g.Name, g.Email, g.AccessLevel, g.UserID)
	}
	return r.done(t.flush())
}

func (r *runner) accessDiff(o accessDiffOptions) int {
	st, profile, done, err := r.snapshots()
	if err != nil {
		return r.fail(err)
	}
	defer done()
	a, b, changes, err := access.DiffSnapshots(st, profile, o.Old, o.New)
	if err != nil {
		return r.fail(err)
	}
	if r.jsonOut() {
		return r.emitJSON(nonNil(changes))
	}
	fmt.Fprintf(r.env.Stderr, "changes from snapshot %d (%s) to %d (%s)\n", a.ID, fmtWhen(a.FinishedAt), b.ID, fmtWhen(b.FinishedAt))
	if len(changes) == 0 && !r.g.CSV {
		fmt.Fprintln(r.env.Stdout, "no access changed")
		return ExitOK
	}
	t := r.table("CHANGE", "EMAIL", "PROJECT", "FROM", "TO", "PROJECT ID")
	for _, c := range changes {
		t.row(c.Kind, c.Email, c.ProjectName, c.From, c.To, c.ProjectID)
	}
	return r.done(t.flush())
}

func (r *runner) accessSnapshots() int {
	st, profile, done, err := r.snapshots()
	if err != nil {
		return r.fail(err)
	}
	defer done()
	snaps, err := st.AccessSnapshots(profile)
	if err != nil {
		return r.fail(err)
	}
	if r.jsonOut() {
		return r.emitJSON(nonNil(snaps))
	}
	t := r.table("SNAPSHOT", "STARTED", "FINISHED", "PROJECTS", "READ", "UNCHANGED", "PENDING", "GRANTS", "REQUESTS")
	for _, s := range snaps {
		fin := "unfinished"
		switch {
		case s.Finished():
			fin = r.atWhen(s.FinishedAt)
		case r.g.CSV:
			fin = "" // a column of times holds times: one not yet known is empty, as --json leaves it out
		}
		t.row(fmt.Sprint(s.ID), r.atWhen(s.StartedAt), fin, fmt.Sprint(s.Projects), fmt.Sprint(s.Read), fmt.Sprint(s.Carried),
			fmt.Sprint(s.Pending), fmt.Sprint(s.Grants), fmt.Sprint(s.Requests))
	}
	return r.done(t.flush())
}

// snapshotNote says on stderr which snapshot answered and how old it is.
func (r *runner) snapshotNote(sn store.AccessSnapshot) {
	fmt.Fprintf(r.env.Stderr, "from access snapshot %d, finished %s\n", sn.ID, fmtWhen(sn.FinishedAt))
}

func fmtWhen(t time.Time) string { return t.UTC().Format(timeLayout) + " UTC" }

// atWhen is fmtWhen in a listing: RFC 3339 with --csv.
func (r *runner) atWhen(t time.Time) string {
	if r.g.CSV {
		return r.at(t)
	}
	return fmtWhen(t)
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

// accessPeople lists a snapshot's people as the console's access view
// opens on them: each with the projects they reach and how many of those
// they manage, most projects first (review.People, the view's own summary).
func (r *runner) accessPeople(snapshot int64) int {
	st, profile, done, err := r.snapshots()
	if err != nil {
		return r.fail(err)
	}
	defer done()
	sn, err := access.Pick(st, profile, snapshot)
	if err != nil {
		return r.fail(err)
	}
	grants, err := st.AccessGrants(sn.ID, store.AccessGrantFilter{})
	if err != nil {
		return r.fail(err)
	}
	people := access.People(grants)
	if r.jsonOut() {
		return r.emitJSON(nonNil(people))
	}
	r.snapshotNote(sn)
	t := r.table("NAME", "EMAIL", "PROJECTS", "MANAGE", "USER ID")
	for _, p := range people {
		t.row(p.Name, p.Email, strconv.Itoa(p.Projects), strconv.Itoa(p.Manage), p.UserID)
	}
	return r.done(t.flush())
}
