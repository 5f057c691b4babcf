package recyclebinview

import (
	"slices"
	"time"
)

// reloadEvery is the least time between two reloads a purge asks for: the
// vault budget is 10 requests a minute, and a large bin has a purge every
// few seconds.
const reloadEvery = time.Minute

// purgedSinceShown reports whether an entry shown is past its purge time
// now but was not when its answer was read: the service purges it then
// (the simulator exactly then), so the bin asks again rather than show it
// overdue until r. An entry the service has not purged yet (its purge job
// lags) comes back in the new answer, read after its purge time: it is
// shown overdue and asks nothing more. One reload a minute at most, none
// while one is under way.
func (m *Model) purgedSinceShown(now time.Time) bool {
	if m.set == nil || m.state.Loading() || now.Sub(m.askedAt) < reloadEvery || !now.After(m.shownAt) {
		return false
	}
	// purges are whole Unix seconds, ascending: the first at or after the
	// answer's second (one in that very second may ask once more, bounded
	// by reloadEvery)
	i, _ := slices.BinarySearch(m.set.purges, m.shownAt.Unix())
	return i < len(m.set.purges) && m.set.purges[i] <= now.Unix()
}
