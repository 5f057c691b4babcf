package recyclebinview

import (
	"cmp"
	"context"
	"slices"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// binSet is one answer made ready for the table, immutable once built, so
// that every session showing an equal answer shares one (api.Keep): the
// records as received, the newest-first order over them, and the sorted
// purge times behind the 24-hour badge. A session keeps only its own
// indexes over it (the subset its filters pass, the table's order and
// cursor): a few hundred KB per session for 100,000 entries, not the 23 MB
// of records and the strings behind them.
type binSet struct {
	bin    *api.RecycleBin
	order  []int32 // bin.Items by rank, newest first; nil when the server sent them so (the spec's order)
	purges []int64 // scheduled purges, Unix seconds, ascending
	hay    binHay  // the filter's haystacks, built by the first session that filters (hay.go)
}

// newBinSet orders rb newest first without touching it (it may be another
// session's too).
func newBinSet(rb *api.RecycleBin) *binSet {
	if rb == nil {
		return &binSet{}
	}
	s := &binSet{bin: rb}
	items := rb.Items
	newer := func(a, b *api.RecycleBinEntry) int {
		return cmp.Compare(b.DeletedAt.UnixNano(), a.DeletedAt.UnixNano())
	}
	sorted := true
	for i := 1; i < len(items) && sorted; i++ {
		sorted = newer(&items[i-1], &items[i]) <= 0
	}
	if !sorted {
		s.order = make([]int32, len(items))
		for i := range s.order {
			s.order[i] = int32(i)
		}
		// stable: ties keep the server's order
		slices.SortStableFunc(s.order, func(a, b int32) int { return newer(&items[a], &items[b]) })
	}
	for i := range items {
		if at := items[i].RecycleBinPurgedScheduledAt.Time; !at.IsZero() {
			s.purges = append(s.purges, at.Unix())
		}
	}
	slices.Sort(s.purges)
	return s
}

// Len is the number of entries.
func (s *binSet) Len() int {
	if s == nil || s.bin == nil {
		return 0
	}
	return len(s.bin.Items)
}

// at is the entry of rank i (0: the newest deletion).
func (s *binSet) at(i int) *api.RecycleBinEntry {
	if s.order != nil {
		return &s.bin.Items[s.order[i]]
	}
	return &s.bin.Items[i]
}

// shareSet returns the set the sessions on this backend's token already
// share when it holds an equal answer to q, else s (now shared).
func shareSet(be page.Backend, ctx context.Context, q api.RecycleBinQuery, s *binSet) *binSet {
	return api.Keep(be, ctx, "recyclebin.rows", []any{q}, s, sameSet)
}

// sameSet reports whether two sets hold the same answer: entry for entry
// (so the same order too), field for field.
func sameSet(a, b *binSet) bool { return api.SameRecycleBin(a.bin, b.bin) }
