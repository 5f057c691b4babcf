package person

import (
	"context"
	"fmt"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Service is what Fill asks: the workspace projects listing and the
// recycle bin (vault budget). *api.Client and the console's Backend
// satisfy it.
type Service interface {
	ProjectsPage(ctx context.Context, q api.ProjectQuery) (*api.ProjectPage, error)
	RecycleBin(q api.RecycleBinQuery) api.Listing[api.RecycleBinEntry]
}

// MatterLister reads the client-matters listing (its own budget, 150 a
// minute); nil leaves the matters part missing.
type MatterLister interface {
	ClientMatters() api.Listing[api.ClientMatter]
}

// MaxCacheEntry is the largest body Fill keeps (the console's bound,
// ui/page.MaxCacheEntry): a larger one is used for this report only.
const MaxCacheEntry = 8 << 20

// perPage is the listing's largest page: 320 projects are 4 requests.
const perPage = 100

// Fill asks the service for the parts of r that Read found missing and a
// request can fill (the projects listing, the recycle bin, the
// client-matters listing; never a crawl or a sync, which are commands of
// their own), one listing each, and keeps each body received in the
// cache for the next report. note, when set, is told before each request.
// The requests wait for the budget inside the client; r.Requests counts
// them.
func Fill(ctx context.Context, svc Service, ml MatterLister, in Local, r *Report, now func() time.Time, note func(string)) error {
	if note == nil {
		note = func(string) {}
	}
	if r.Created.ProjectsSource.Fill != "" && svc != nil {
		ps, err := fillProjects(ctx, svc, in.Cache, r, now, note)
		if err != nil {
			return fmt.Errorf("the projects listing could not be read: %w", err)
		}
		r.Created.Projects = []api.Project{}
		howOf(r, ps)
		for _, p := range ps {
			if eqFold(p.CreatorEmail, r.Email) {
				r.Created.Projects = append(r.Created.Projects, p)
			}
		}
		sortProjects(r.Created.Projects)
		r.Created.ProjectsSource = Source{From: "projects listing, read now", AsOf: now()}
	}
	if r.Deleted.Fill != "" && svc != nil {
		note("the recycle bin (1 vault request)")
		var body []byte
		rctx := api.WithBodyCopy(ctx, MaxCacheEntry, func(b []byte) { body = append([]byte(nil), b...) })
		items, _, err := svc.RecycleBin(api.RecycleBinQuery{}).Collect(rctx)
		r.Requests++
		if err != nil {
			return fmt.Errorf("the recycle bin could not be read: %w", err)
		}
		at := now()
		if err := keep(in.Cache, CacheRecycleBin, body, at); err != nil {
			return err
		}
		r.Deleted.Entries = DeletedBy(items, r.Email)
		r.Deleted.Source = Source{From: "recycle bin, read now", AsOf: at}
	}
	if r.Created.MattersSource.Fill != "" && ml != nil {
		note("the client-matters listing (1 request of the client-matters budget)")
		var body []byte
		mctx := api.WithBodyCopy(ctx, MaxCacheEntry, func(b []byte) { body = append([]byte(nil), b...) })
		var mine []api.ClientMatter
		_, err := ml.ClientMatters().Each(mctx, func(m *api.ClientMatter, _ api.RawItem) error {
			if eqFold(m.UserEmail, r.Email) {
				mine = append(mine, *m)
			}
			return nil
		}, nil)
		r.Requests++
		if err != nil {
			return fmt.Errorf("the client-matters listing could not be read: %w", err)
		}
		at := now()
		if err := keep(in.Cache, CacheMatters, body, at); err != nil {
			return err
		}
		r.Created.Matters = MattersOf(mine, r.Email)
		r.Created.MattersSource = Source{From: "client-matters listing, read now", AsOf: at}
	}
	return nil
}

// fillProjects reads every page of the listing, keeping each body.
func fillProjects(ctx context.Context, svc Service, c Cache, r *Report, now func() time.Time, note func(string)) ([]api.Project, error) {
	var all []api.Project
	for n := 1; ; n++ {
		if n == 1 {
			note("the projects listing (a vault request per 100 projects)")
		}
		var body []byte
		pctx := api.WithBodyCopy(ctx, MaxCacheEntry, func(b []byte) { body = append([]byte(nil), b...) })
		pg, err := svc.ProjectsPage(pctx, api.ProjectQuery{Page: n, PerPage: perPage})
		r.Requests++
		if err != nil {
			return nil, err
		}
		if err := keep(c, fmt.Sprintf(CacheProjectPage, n), body, now()); err != nil {
			return nil, err
		}
		all = append(all, pg.Projects...)
		// Progress means new items: an empty page, or the last one, ends it.
		if len(pg.Projects) == 0 || n >= int(pg.Pagination.TotalPages) {
			return all, nil
		}
	}
}

// keep stores body under key when there is one (a body over the bound
// was not copied) and a cache to keep it in.
func keep(c Cache, key string, body []byte, at time.Time) error {
	if c == nil || body == nil {
		return nil
	}
	return c.Put(key, body, at)
}
