package access

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// API is what a crawl asks of the service. *api.Client and
// *api.SharedClient satisfy it; both draw on the process's shared budget.
type API interface {
	Projects(q api.ProjectQuery) api.Listing[api.Project]
	ProjectUsers(projectID string) api.Listing[api.ProjectUser]
	Budget(cat api.Category) api.BudgetStatus
}

// Progress is reported after the listing and after each project read.
type Progress struct {
	Snapshot int64
	Total    int // listed projects
	Done     int // read or carried so far (this snapshot, all runs)
	Carried  int // carried over unchanged from the last finished snapshot
	ToRead   int // projects this run had to read when it started
	Read     int // projects read by this run
	Requests int // service requests made by this run
	ETA      time.Duration
	Last     string // the project just read
}

// leaseTTL is how long a crawl's claim on its snapshot lasts without a
// renewal; each committed project renews it. A crawl killed with kill -9
// leaves its lease to expire, so a restart within the TTL waits for it.
const leaseTTL = 2 * time.Minute

// Crawler gathers the users of every project into a snapshot.
type Crawler struct {
	API     API
	Store   Snapshots
	Profile string
	// Owner names this crawl in the lease (default: host:pid:random).
	Owner string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Progress, when set, is called after the listing and after every
	// project read.
	Progress func(Progress)
}

func (c *Crawler) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Claim opens the crawl's snapshot (or takes the unfinished one back) and
// its lease, as Run does first. A caller may claim early: the demo does as
// its store opens, before anything else reads it, so that :access finds
// the crawl under way rather than no snapshot at all; Run, with the same
// Owner, then carries on with it.
func (c *Crawler) Claim() (store.AccessSnapshot, error) {
	if c.Owner == "" {
		c.Owner = store.LeaseOwner()
	}
	return c.Store.OpenAccessSnapshot(c.Profile, c.Owner, c.now(), c.now().Add(leaseTTL), store.HolderIsGone)
}

// Run crawls until every project is read or carried, then finishes the
// snapshot and returns it. On an error or a cancelled ctx, every project
// read so far stays committed and the next Run resumes from there.
func (c *Crawler) Run(ctx context.Context) (store.AccessSnapshot, error) {
	if err := c.Store.Check(); err != nil {
		return store.AccessSnapshot{}, err
	}
	snap, err := c.Claim()
	if err != nil {
		return store.AccessSnapshot{}, err
	}
	defer c.Store.ReleaseAccessLease(snap.ID, c.Owner)
	ctx = api.WithCheckBeforeSending(ctx, c.Store.Unchanged)
	started := c.now()
	pr := Progress{Snapshot: snap.ID}
	spent := func(n int) error {
		pr.Requests += n
		return c.Store.AddAccessRequests(snap.ID, n)
	}

	listed, err := c.list(ctx, spent)
	if err != nil {
		return snap, fmt.Errorf("listing the projects: %w", err)
	}
	current, err := c.Store.AccessProjects(snap.ID)
	if err != nil {
		return snap, err
	}
	last, lastProjects, err := c.lastFinished(snap.ID)
	if err != nil {
		return snap, err
	}
	pending, carry, drop := Plan(listed, current, lastProjects)
	if err := c.Store.PlanAccessProjects(snap.ID, pending, carry, last, drop); err != nil {
		return snap, err
	}
	slices.SortFunc(pending, func(a, b store.AccessProject) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	pr.Total = len(listed)
	pr.ToRead = len(pending)
	pr.Done = pr.Total - len(pending)
	pr.Carried = len(carry)
	for _, p := range current {
		if p.State == store.AccessCarried && !slices.Contains(drop, p.ID) {
			pr.Carried++
		}
	}
	c.report(&pr, started)

	for _, p := range pending {
		if err := ctx.Err(); err != nil {
			return snap, err
		}
		users, _, err := c.API.ProjectUsers(p.ID).Collect(ctx)
		if err := spent(1); err != nil {
			return snap, err
		}
		switch {
		case errors.Is(err, api.KindNotFound):
			// Deleted since the listing: it has no users to review.
			if err := c.Store.PlanAccessProjects(snap.ID, nil, nil, 0, []string{p.ID}); err != nil {
				return snap, err
			}
			pr.Total--
		case err != nil:
			return snap, fmt.Errorf("reading the users of project %s: %w", p.ID, err)
		default:
			p.State = store.AccessRead
			if err := c.Store.CommitAccessProject(snap.ID, p, grantsOf(p, users)); err != nil {
				return snap, err
			}
			pr.Done++
		}
		pr.Read++
		pr.Last = p.Name
		c.report(&pr, started)
		if err := c.Store.RenewAccessLease(snap.ID, c.Owner, c.now().Add(leaseTTL)); err != nil {
			return snap, err
		}
	}
	if err := c.Store.FinishAccessSnapshot(snap.ID, c.now()); err != nil {
		return snap, err
	}
	return c.snapshot(snap.ID)
}

func (c *Crawler) report(pr *Progress, started time.Time) {
	if c.Progress == nil {
		return
	}
	pr.ETA = ETA(pr.ToRead-pr.Read, c.API.Budget(api.CategoryVault), pr.Read, c.now().Sub(started))
	c.Progress(*pr)
}

// list reads the project listing, counting each page as a request.
func (c *Crawler) list(ctx context.Context, spent func(int) error) ([]store.AccessProject, error) {
	var out []store.AccessProject
	_, err := c.API.Projects(api.ProjectQuery{}).Each(ctx, func(p *api.Project, _ api.RawItem) error {
		out = append(out, store.AccessProject{ID: p.ID, Name: p.Name, UpdatedAt: updatedKey(p.ProjectUpdatedAt)})
		return nil
	}, func() error { return spent(1) })
	return out, err
}

// lastFinished returns the newest finished snapshot other than id, and its
// projects (0 and none when there is none).
func (c *Crawler) lastFinished(id int64) (int64, []store.AccessProject, error) {
	all, err := c.Store.AccessSnapshots(c.Profile)
	if err != nil {
		return 0, nil, err
	}
	for _, s := range all {
		if s.ID != id && s.Finished() {
			ps, err := c.Store.AccessProjects(s.ID)
			return s.ID, ps, err
		}
	}
	return 0, nil, nil
}

func (c *Crawler) snapshot(id int64) (store.AccessSnapshot, error) {
	all, err := c.Store.AccessSnapshots(c.Profile)
	if err != nil {
		return store.AccessSnapshot{}, err
	}
	for _, s := range all {
		if s.ID == id {
			return s, nil
		}
	}
	return store.AccessSnapshot{}, fmt.Errorf("access snapshot %d is gone", id)
}

// grantsOf turns a project's users into grants. A user listed twice (say
// directly and through a group) keeps the higher level: that is the access
// the person has.
func grantsOf(p store.AccessProject, users []api.ProjectUser) []store.AccessGrant {
	byEmail := map[string]int{}
	var out []store.AccessGrant
	for _, u := range users {
		g := store.AccessGrant{ProjectID: p.ID, ProjectName: p.Name, UserID: u.UserID, Email: strings.TrimSpace(u.Email), Name: u.Name, AccessLevel: u.AccessLevel}
		key := strings.ToLower(g.Email)
		if key == "" {
			key = "id:" + g.UserID
		}
		if i, ok := byEmail[key]; ok {
			if rank(g.AccessLevel) > rank(out[i].AccessLevel) {
				out[i] = g
			}
			continue
		}
		byEmail[key] = len(out)
		out = append(out, g)
	}
	return out
}

func rank(level string) int {
	switch strings.ToUpper(level) {
	case LevelManage:
		return 2
	case LevelRead:
		return 1
	}
	return 0
}
