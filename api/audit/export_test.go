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
