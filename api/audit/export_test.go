package audit

import (
	"context"

	"github.com/vaultdeck/vaultdeck/store"
)

// SmallPages is o asking for pages of n entries (the listing's own most
// is 1000), so a test walks many batches through few entries.
func SmallPages(o FollowOptions, n int) FollowOptions {
	o.take = n
	return o
}

// NewestFirst is Query newest first in windows of chunk entries.
func NewestFirst(j *Job, ctx context.Context, f store.AuditFilter, chunk int, fn func(store.AuditEntry) error) (Answer, error) {
	f.Newest = true
	return j.newestFirst(ctx, f, chunk, fn)
}

// ComputeStats is ReadStats over entries in hand, for the rules' tests:
// history (before the range) and entries (in it), each oldest first.
func ComputeStats(r StatsRange, history, entries []store.AuditEntry) (Stats, error) {
	b, err := newStatsBuilder(r)
	if err != nil {
		return Stats{}, err
	}
	for _, e := range history {
		b.history(e)
	}
	for _, e := range entries {
		b.add(e)
	}
	return b.result(), nil
}
