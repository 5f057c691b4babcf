package purge

import (
	"cmp"
	"slices"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Group is one person of the bin grouped by who deleted (the console's `b`,
// `recycle-bin --by-deleter`): how many of their deletions the bin holds,
// how many purge within the window, and their next purge.
type Group struct {
	DeletedBy string `json:"deleted_by"`
	Projects  int    `json:"projects"`
	// Within counts the projects that purge within Window (overdue ones
	// too), the window the count is of.
	Within int           `json:"purging_within"`
	Window time.Duration `json:"-"`
	// NextPurge is the soonest scheduled purge among them (zero: none known).
	NextPurge time.Time `json:"next_purge_at,omitzero"`
}

// Grouper groups bin entries by who deleted them, one face's logic for both
// the console and the command line.
type Grouper struct {
	window time.Duration
	by     map[string]*Group
	order  []*Group
}

// NewGrouper groups, counting the purges within window (0: Soon).
func NewGrouper(window time.Duration) *Grouper {
	if window <= 0 {
		window = Soon
	}
	return &Grouper{window: window, by: map[string]*Group{}}
}

// Add counts e at now.
func (g *Grouper) Add(e *api.RecycleBinEntry, now time.Time) {
	gr := g.by[e.DeletedByUserEmail]
	if gr == nil {
		gr = &Group{DeletedBy: e.DeletedByUserEmail, Window: g.window}
		g.by[gr.DeletedBy] = gr
		g.order = append(g.order, gr)
	}
	gr.Projects++
	at := e.RecycleBinPurgedScheduledAt.Time
	if in, _ := Within(at, now, g.window); in {
		gr.Within++
	}
	if !at.IsZero() && (gr.NextPurge.IsZero() || at.Before(gr.NextPurge)) {
		gr.NextPurge = at
	}
}

// Groups are the groups, most projects first, then by address.
func (g *Grouper) Groups() []Group {
	slices.SortStableFunc(g.order, func(a, b *Group) int {
		return cmp.Or(cmp.Compare(b.Projects, a.Projects), cmp.Compare(a.DeletedBy, b.DeletedBy))
	})
	out := make([]Group, len(g.order))
	for i, gr := range g.order {
		out[i] = *gr
	}
	return out
}
