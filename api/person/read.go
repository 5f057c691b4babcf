package person

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/store"
)

// Cache keys, named here once for everything that reads the cache.
// CacheProjects and CacheRecycleBin are the console's own (its views read
// them here, and `status --journal` the project names): its cached first
// page of projects answers when it is the only page, and its cached bin
// is the whole bin.
// The other keys are the person report's: every page of the projects
// listing (CacheProjectPage, numbered from 1) and the client-matters
// listing, each body as the service sent it.
const (
	CacheProjects    = "projects"
	CacheRecycleBin  = "recyclebin"
	CacheProjectPage = "projects.all.%d"
	CacheMatters     = "client_matters"
)

// Cache is the response cache bound to one profile. An error is a store
// that could not be read, and stops the report (never read as "nothing
// cached": that would send requests a working store would have saved).
type Cache interface {
	Get(key string) (body []byte, fetchedAt time.Time, ok bool, err error)
	Put(key string, body []byte, fetchedAt time.Time) error
}

// Mirror is the audit mirror as the report reads it; *store.Store
// satisfies it.
type Mirror interface {
	AuditLogs(ctx context.Context, prefix string) ([]string, error)
	AuditEntries(ctx context.Context, log string, f store.AuditFilter, fn func(store.AuditEntry) error) error
	AuditState(ctx context.Context, log string) (store.AuditMirrorState, error)
	AuditUserFacts(ctx context.Context, log, user string, fn func(store.AuditEntry) error) error
}

// Local is what the report reads without a request. Any of Snapshots,
// Cache and Mirror may be nil: the part it would fill is then missing.
type Local struct {
	Snapshots access.Snapshots
	Profile   string // the profile the snapshots and the cache are kept under
	Cache     Cache
	Mirror    Mirror
	// Log is the mirror's log key (api/audit.MirrorLog finds it); "" when
	// there is none.
	Log string
}

// Options shape the activity part.
type Options struct {
	// Since, when set, makes Latest every entry at or after it (up to
	// MaxLatest), rather than the latest LatestN.
	Since time.Time
}

const (
	// LatestN is how many latest entries the report lists by default.
	LatestN = 20
	// MaxLatest bounds Latest whatever Since says.
	MaxLatest = 10_000
	// NewWithin is how recent an address's first use must be for it to
	// count as new (the purge window's "soon", a week).
	NewWithin = 7 * 24 * time.Hour
)

// The commands that fill a part nothing local covers.
const (
	fillCrawl = "run `vaultdeck access crawl` (one request per project, within the vault budget)"
	fillSync  = "run `vaultdeck audit sync` (it copies the audit log inside the audit budget)"
	jobCrawl  = "access crawl"
	jobSync   = "audit sync"
)

// Read assembles the report of email from local data alone: it sends no
// request. now is the clock the ages and windows are measured from.
func Read(ctx context.Context, in Local, email string, now time.Time, o Options) (*Report, error) {
	email = strings.TrimSpace(email)
	r := &Report{Email: email, At: now}
	if err := readReach(in, r); err != nil {
		return nil, err
	}
	if err := readCreated(in, r); err != nil {
		return nil, err
	}
	if err := readDeleted(in, r, now); err != nil {
		return nil, err
	}
	if err := readActivity(ctx, in, r, now, o); err != nil {
		return nil, err
	}
	return r, nil
}

func readReach(in Local, r *Report) error {
	r.Reach.Grants, r.Reach.SoleManage = []store.AccessGrant{}, []store.AccessGrant{}
	if in.Snapshots == nil {
		r.Reach.Missing, r.Reach.Job = fillCrawl, jobCrawl
		return nil
	}
	sn, grants, err := access.Lookup(in.Snapshots, in.Profile, 0, r.Email)
	var unknown *access.UnknownPersonError
	switch {
	case errors.Is(err, access.ErrNoSnapshot):
		r.Reach.Missing, r.Reach.Job = fillCrawl, jobCrawl
		return nil
	case errors.As(err, &unknown):
		// Not in the snapshot: they may still have created, deleted or
		// done things; the caller decides with Known and Unknown.
		r.unknown = unknown
	case err != nil:
		return err
	}
	r.Reach.From, r.Reach.AsOf, r.Reach.Snapshot = fmt.Sprintf("access snapshot %d", sn.ID), sn.FinishedAt, sn.ID
	if len(grants) == 0 {
		return nil
	}
	r.Name = grants[0].Name
	access.SortManageFirst(grants)
	r.Reach.Grants = grants
	sole, err := SoleManage(in.Snapshots, sn.ID, r.Email, grants)
	if err != nil {
		return err
	}
	r.Reach.SoleManage = sole
	return nil
}

// SoleManage returns the grants of email's that are MANAGE on a project
// where nobody else in snapshot id has MANAGE. It reads the users of
// those projects only (one indexed query each).
func SoleManage(s access.Snapshots, id int64, email string, grants []store.AccessGrant) ([]store.AccessGrant, error) {
	out := []store.AccessGrant{}
	for _, g := range grants {
		if !strings.EqualFold(g.AccessLevel, access.LevelManage) {
			continue
		}
		users, err := s.AccessGrants(id, store.AccessGrantFilter{ProjectID: g.ProjectID})
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(users, func(u store.AccessGrant) bool {
			return !strings.EqualFold(u.Email, email) && strings.EqualFold(u.AccessLevel, access.LevelManage)
		}) {
			out = append(out, g)
		}
	}
	return out, nil
}

// projectListing returns every project from the cache, the console's
// first page when it was the only one, else the person report's pages;
// ok is false when neither holds the whole listing.
func projectListing(c Cache) (ps []api.Project, at time.Time, from string, ok bool, err error) {
	if c == nil {
		return nil, at, "", false, nil
	}
	body, at, hit, err := c.Get(CacheProjects)
	if err != nil {
		return nil, at, "", false, err
	}
	var pg api.ProjectPage
	if hit && json.Unmarshal(body, &pg) == nil && pg.Pagination.TotalPages <= 1 && len(pg.Projects) >= int(pg.Pagination.Total) {
		return pg.Projects, at, FromConsoleProjects, true, nil
	}
	// Pages cached as the console read them shift when a project is added
	// meanwhile: a project on two of them is counted once.
	seen := map[string]bool{}
	for n := 1; ; n++ {
		body, fetched, hit, err := c.Get(fmt.Sprintf(CacheProjectPage, n))
		if err != nil {
			return nil, at, "", false, err
		}
		var pg api.ProjectPage
		if !hit || json.Unmarshal(body, &pg) != nil {
			return nil, at, "", false, nil
		}
		if n == 1 || fetched.Before(at) {
			at = fetched // the listing is as old as its oldest page
		}
		for _, p := range pg.Projects {
			if k := strings.ToLower(p.ID); !seen[k] {
				seen[k] = true
				ps = append(ps, p)
			}
		}
		if n >= int(pg.Pagination.TotalPages) {
			return ps, at, "cached projects listing", true, nil
		}
	}
}

func readCreated(in Local, r *Report) error {
	c := &r.Created
	c.Projects, c.Matters = []api.Project{}, []api.ClientMatter{}
	ps, at, from, ok, err := projectListing(in.Cache)
	if err != nil {
		return err
	}
	if ok {
		c.ProjectsSource = Source{From: from, AsOf: at}
		howOf(r, ps)
		for _, p := range ps {
			if strings.EqualFold(p.CreatorEmail, r.Email) {
				c.Projects = append(c.Projects, p)
			}
		}
		sortProjects(c.Projects)
	} else {
		c.ProjectsSource = Source{Missing: "the projects listing is not cached", Fill: "projects"}
	}
	body, at, ok, err := cacheGet(in.Cache, CacheMatters)
	if err != nil {
		return err
	}
	var ms []api.ClientMatter
	if !ok || json.Unmarshal(body, &ms) != nil {
		c.MattersSource = Source{Missing: "the client-matters listing is not cached", Fill: "matters"}
		return nil
	}
	c.MattersSource = Source{From: "cached client-matters listing", AsOf: at}
	c.Matters = MattersOf(ms, r.Email)
	return nil
}

// MattersOf are the matters of ms whose user_email is email, live ones
// first, most used (total_events) first, then by name.
func MattersOf(ms []api.ClientMatter, email string) []api.ClientMatter {
	out := []api.ClientMatter{}
	for _, m := range ms {
		if strings.EqualFold(m.UserEmail, email) {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b api.ClientMatter) int {
		if a.Deleted() != b.Deleted() {
			if a.Deleted() {
				return 1
			}
			return -1
		}
		if a.TotalEvents != b.TotalEvents {
			return cmp.Compare(b.TotalEvents, a.TotalEvents)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

func cacheGet(c Cache, key string) ([]byte, time.Time, bool, error) {
	if c == nil {
		return nil, time.Time{}, false, nil
	}
	return c.Get(key)
}

func readDeleted(in Local, r *Report, now time.Time) error {
	r.Deleted.Entries = []api.RecycleBinEntry{}
	body, at, ok, err := cacheGet(in.Cache, CacheRecycleBin)
	if err != nil {
		return err
	}
	var rb api.RecycleBin
	if !ok || json.Unmarshal(body, &rb) != nil {
		r.Deleted.Source = Source{Missing: "the recycle bin is not cached", Fill: "recyclebin"}
		return nil
	}
	r.Deleted.Source = Source{From: "cached recycle bin", AsOf: at}
	r.Deleted.Entries = DeletedBy(rb.Items, r.Email)
	return nil
}

// DeletedBy are the entries of items deleted by email, soonest purge
// first (an entry without a purge time last).
func DeletedBy(items []api.RecycleBinEntry, email string) []api.RecycleBinEntry {
	out := []api.RecycleBinEntry{}
	for _, e := range items {
		if strings.EqualFold(e.DeletedByUserEmail, email) {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b api.RecycleBinEntry) int {
		az, bz := a.RecycleBinPurgedScheduledAt.IsZero(), b.RecycleBinPurgedScheduledAt.IsZero()
		switch {
		case az != bz && az:
			return 1
		case az != bz:
			return -1
		}
		return a.RecycleBinPurgedScheduledAt.Compare(b.RecycleBinPurgedScheduledAt.Time)
	})
	return out
}

func sortProjects(ps []api.Project) {
	slices.SortFunc(ps, func(a, b api.Project) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
}

func eqFold(a, b string) bool { return strings.EqualFold(a, b) }
