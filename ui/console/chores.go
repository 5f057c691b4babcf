package console

import (
	"context"
	"fmt"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// demoChores are the demo's audit sync and access crawl, run in the
// console as tasks: the demo's simulator and store live in this process
// and a temporary home, which `vaultdeck audit sync` or `vaultdeck access
// crawl` typed in a shell cannot reach (issue 29.7).
func demoChores(c *api.Client, st *store.Store, profile string) *page.Chores {
	return &page.Chores{
		SyncAudit: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			j := &audit.Job{Svc: c, Mirror: st, Progress: func(p audit.Progress) {
				progress(plural.Count(p.Listed, "entry") + " listed")
			}}
			r, err := j.Sync(ctx)
			if err != nil {
				return page.Outcome{}, err
			}
			return page.Outcome{Text: fmt.Sprintf("audit sync: %s listed, %d new in the mirror (r re-reads a view)", plural.Count(r.Listed, "entry"), r.Added)}, nil
		},
		CrawlAccess: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			progress("crawling every project's users")
			sn, err := (&access.Crawler{API: c, Store: st, Profile: profile}).Run(ctx)
			if err != nil {
				return page.Outcome{}, err
			}
			return page.Outcome{Text: fmt.Sprintf("access crawl: snapshot %d, %s", sn.ID, plural.Count(sn.Projects, "project"))}, nil
		},
	}
}
