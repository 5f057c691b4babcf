package audit

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

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
// history (before the range) and entries (in it), each oldest first, are
// written to a mirror in a new database and the statistics read from it.
func ComputeStats(t testing.TB, r StatsRange, history, entries []store.AuditEntry) (Stats, error) {
	t.Helper()
	st, err := store.OpenWith(filepath.Join(t.TempDir(), "stats.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	SeedMirror(t, st, "L", append(slices.Clone(history), entries...))
	return ReadStats(context.Background(), st, "L", r)
}

// SeedMirror writes es (oldest first) to log in st, in pages of 5,000,
// each entry given an id and a small JSON body when it has none.
func SeedMirror(t testing.TB, st *store.Store, log string, es []store.AuditEntry) {
	t.Helper()
	prev := ""
	for i := 0; i < len(es); i += 5000 {
		page := store.AuditMirrorPage{Log: log, Prev: prev}
		for k := i; k < min(i+5000, len(es)); k++ {
			e := es[k]
			if e.ID == "" {
				e.ID = fmt.Sprintf("%08d-0000-7000-8000-000000000000", k)
			}
			if e.Raw == nil {
				e.Raw = fmt.Appendf(nil, `{"id":%q,"type":%q,"user":%q,"ip":%q}`, e.ID, e.Type, e.User, e.IP)
			}
			page.Entries = append(page.Entries, e)
		}
		page.Cursor = page.Entries[len(page.Entries)-1].ID
		if err := st.SaveAuditPage(context.Background(), page); err != nil {
			t.Fatal(err)
		}
		prev = page.Cursor
	}
}

// ReferenceStats is the statistics as the scan before issue 27 computed
// them (stats_reference_test.go), for the property test.
func ReferenceStats(r StatsRange, history, entries []store.AuditEntry) (Stats, error) {
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
