package serve

import (
	"context"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/store"
)

// serve --crawl-every: the access review's crawl, run on a schedule for
// every bound profile, one at a time per profile (the snapshot's lease also
// keeps a `vaultdeck access crawl` of the same profile out). Sessions read
// the snapshots from the server's database through the :access view.

// crawlRate is the vault requests a minute a scheduled crawl may take of
// the 10 the organisation has: the budget is shared, so it leaves 4 a
// minute to the sessions (a first crawl of 320 projects then takes about
// 54 minutes instead of 33, a daily one still under two).
const crawlRate = 6

// crawlRetry is the wait after a failed crawl (the service down, another
// process crawling) before the next try; what was read is kept.
const crawlRetry = 5 * time.Minute

// nextCrawl says how long to wait before a profile's next crawl, given its
// snapshots (newest first): none now when there is no snapshot or the
// newest is unfinished (a crawl to resume); otherwise every after the last
// finished one, or none when that time has passed.
func nextCrawl(snaps []store.AccessSnapshot, every time.Duration, now time.Time) time.Duration {
	if len(snaps) == 0 || !snaps[0].Finished() {
		return 0
	}
	// At most one period: a last crawl in the future means the clock was
	// set back, and the days it jumped are no schedule to keep.
	return min(max(snaps[0].FinishedAt.Add(every).Sub(now), 0), every)
}

// startCrawls runs each bound profile's schedule until ctx ends.
func (s *Server) startCrawls(ctx context.Context) {
	if s.cfg.CrawlEvery <= 0 {
		return
	}
	for _, name := range s.keys.Profiles() {
		go s.crawlProfile(ctx, name)
	}
}

func (s *Server) crawlProfile(ctx context.Context, name string) {
	wait := time.Duration(0)
	for {
		snaps, err := s.st.AccessSnapshots(name)
		if err == nil {
			wait = max(wait, nextCrawl(snaps, s.cfg.CrawlEvery, time.Now()))
		}
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		sn, err := s.crawl(ctx, name)
		if ctx.Err() != nil {
			return
		}
		wait = 0
		if err != nil {
			s.log.Warn("access crawl failed; what was read is kept", "profile", name, "err", err, "retry_in", crawlRetry)
			wait = crawlRetry
		} else {
			s.log.Info("access crawl finished", "profile", name, "snapshot", sn.ID, "projects", sn.Projects,
				"read", sn.Read, "unchanged", sn.Carried, "requests", sn.Requests)
		}
		if s.cfg.CrawlDone != nil {
			s.cfg.CrawlDone(name, sn, err)
		}
	}
}

// crawl runs one crawl of a bound profile on a client of its own that
// draws on the server's one budget registry and the machine's ledger at crawlRate.
func (s *Server) crawl(ctx context.Context, name string) (store.AccessSnapshot, error) {
	b, err := s.backendFor(name)
	if err != nil {
		return store.AccessSnapshot{}, err
	}
	c, err := s.crawlClient(b)
	if err != nil {
		return store.AccessSnapshot{}, err
	}
	return (&access.Crawler{API: c, Store: s.st, Profile: name}).Run(ctx)
}

// crawlClient is the profile's configuration (its timeout and max-rate
// too), with vault held to crawlRate below whatever the cap leaves, so the
// sessions keep the rest of the organisation's minute.
func (s *Server) crawlClient(b *profileBackend) (*api.Client, error) {
	cfg := b.account.Config(s.shared("vaultdeck serve (access crawl)"))
	if cfg.Limits.Vault >= 0 {
		cfg.Limits.Vault = min(cfg.Limits.Of(api.CategoryVault), crawlRate)
	}
	c, err := api.New(cfg)
	if err == nil {
		s.redRecent.Add(c.Redact)
	}
	return c, err
}
