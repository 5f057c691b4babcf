package audit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// The rules of what stands out, as constants a test can name.
const (
	// BurstFloor and BurstFactor define a burst: see burstRuns.
	BurstFloor  = 10
	BurstFactor = 4
	// SettledEntries: a user's addresses are known once this many of
	// their entries were seen (see newAddresses).
	SettledEntries = 10
	// RegularEntries, RegularDays and RegularHours: a user keeps regular
	// hours when the lookback holds at least RegularEntries of their
	// entries on at least RegularDays days, all within at most
	// RegularHours hours of the day (see oddHours).
	RegularEntries = 50
	RegularDays    = 5
	RegularHours   = 16
)

// statsSpan checks r and says where its buckets start and how many there are.
func statsSpan(r StatsRange) (StatsRange, time.Time, int, error) {
	if r.By <= 0 {
		r.By = time.Hour
	}
	r.Since, r.Until = r.Since.UTC(), r.Until.UTC()
	first := BucketStart(r.Since, r.By)
	if !r.Since.Before(r.Until) || int64(r.Until.Sub(first)/r.By) >= MaxBuckets {
		return r, first, 0, ErrStatsRange
	}
	return r, first, int((r.Until.Sub(first) + r.By - 1) / r.By), nil
}

// bucketSpan is bucket i's span, clipped to the range.
func bucketSpan(r StatsRange, first time.Time, i int) (time.Time, time.Time) {
	start := first.Add(time.Duration(i) * r.By)
	end := start.Add(r.By)
	if start.Before(r.Since) {
		start = r.Since
	}
	if end.After(r.Until) {
		end = r.Until
	}
	return start, end
}

// burstRuns finds, in one delete/export type's counts per bucket, the runs
// of adjacent buckets whose count is more than BurstFactor times the
// median of that type's counts over every bucket of the range (empty
// buckets count as zero, so for a type seen in under half the buckets the
// median is 0) and whose sum is at least BurstFloor. A run, not a bucket:
// a burst does not stop at the clock's hour, and forty deletions from
// 03:53 to 04:06 are one burst, not two halves each under the floor or
// each listing part of it. Each run is its first and last bucket.
func burstRuns(counts []int) (median int, runs [][2]int) {
	sorted := slices.Clone(counts)
	slices.Sort(sorted)
	median = sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2] + 1) / 2
	}
	past := func(i int) bool { return i < len(counts) && counts[i] > 0 && counts[i] > BurstFactor*median }
	for i := 0; i < len(counts); i++ {
		if !past(i) {
			continue
		}
		first, sum := i, counts[i]
		for ; past(i + 1); i++ {
			sum += counts[i+1]
		}
		if sum >= BurstFloor {
			runs = append(runs, [2]int{first, i})
		}
	}
	return median, runs
}

// burstCell is a delete/export type's entries in a bucket or a run.
type burstCell struct {
	n          int
	typ        string // as the first entry wrote it
	user, ip   string
	users, ips bool // more than one
	firstAt    time.Time
	firstUse   time.Time // when the user first used the address (as far as the lookback sees)
}

// take adds an entry of the cell (oldest first); firstUse is its user's
// first use of its address, read only for the cell's first entry.
func (c *burstCell) take(typ, user, ip string, at time.Time, firstUse func() time.Time) {
	if c.n == 0 {
		c.typ, c.user, c.ip, c.firstAt, c.firstUse = typ, user, ip, at, firstUse()
	} else {
		c.users = c.users || !strings.EqualFold(c.user, user)
		c.ips = c.ips || c.ip != ip
	}
	c.n++
}

// burstMark is the mark of a burst of c's entries between start and end:
// the address (and user) named when they all share one, and said to be
// new when the user first used it within the range.
func burstMark(r StatsRange, c burstCell, start, end time.Time, median int) Mark {
	m := Mark{Kind: MarkBurst, Start: start, End: end, Type: c.typ, Count: c.n}
	from := ""
	if !c.ips {
		m.IP, from = c.ip, " from "+c.ip
		if !c.users && !c.firstUse.Before(r.Since) {
			from += fmt.Sprintf(", an address %s first used at %s UTC (never in the %s before)", c.user, c.firstUse.Format("01-02 15:04"), plural.Count(int(HistoryLookback.Hours()/24), "day"))
		}
	}
	if !c.users {
		m.User = c.user
	}
	m.Why = fmt.Sprintf("%d %s between %s and %s UTC (usually %d)%s", c.n, m.Type, start.Format("01-02 15:04"), end.Format("01-02 15:04"), median, from)
	return m
}

// sortBursts puts the largest first.
func sortBursts(ms []Mark) {
	slices.SortFunc(ms, func(x, y Mark) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), x.Start.Compare(y.Start), strings.Compare(x.Type, y.Type))
	})
}

// newAddressMark is the mark of a settled user's first login from an address.
func newAddressMark(at time.Time, typ, user, ip string, addrs, entries int) Mark {
	return Mark{Kind: MarkNewAddress, Start: at, End: at.Add(time.Microsecond), Type: typ, User: user, IP: ip, Count: 1,
		Why: fmt.Sprintf("%s signed in from %s, an address they had not used before (%s in %s)", user, ip, plural.Count(addrs, "address"), plural.Count(entries, "entry"))}
}

// settledOn says a user with entries seen before, on addrs addresses,
// has a usual address to depart from (see newAddresses).
func settledOn(entries, addrs int) bool { return entries >= SettledEntries && 3*addrs <= entries }

// oddHourMark is the mark of a user's n entries in the clock hour at.
func oddHourMark(user string, hour time.Time, n int) Mark {
	return Mark{Kind: MarkOddHour, Start: hour, End: hour.Add(time.Hour), User: user, Count: n,
		Why: fmt.Sprintf("%s active at %s UTC (%s), an hour they are never active at in the %s before", user, hour.Format("15:04"), plural.Count(n, "entry"), plural.Count(int(HistoryLookback.Hours()/24), "day"))}
}
