package audit

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// The rules of what stands out, as constants a test can name.
const (
	// BurstFloor and BurstFactor define a burst: see statsBuilder.bursts.
	BurstFloor  = 10
	BurstFactor = 4
	// SettledEntries: a user's addresses are known once this many of
	// their entries were seen (see statsBuilder.add).
	SettledEntries = 10
	// RegularEntries, RegularDays and RegularHours: a user keeps regular
	// hours when the lookback holds at least RegularEntries of their
	// entries on at least RegularDays days, all within at most
	// RegularHours hours of the day (see statsBuilder.oddHour).
	RegularEntries = 50
	RegularDays    = 5
	RegularHours   = 16
)

// userSeen is what is known of one user while the entries go by.
type userSeen struct {
	addrs map[string]time.Time // address -> first use seen
	n     int                  // entries seen (lookback and range so far)
	hours uint32               // bit h: an entry at UTC hour h in the lookback
	histN int                  // entries in the lookback
	days  int                  // distinct UTC days in the lookback
	day   int64                // the last of them (entries come oldest first)
}

// burstCell is one delete/export type's entries in one bucket.
type burstCell struct {
	n          int
	typ        string // as the first entry wrote it
	user, ip   string
	users, ips bool // more than one
	firstAt    time.Time
	firstUse   time.Time // when the user first used the address (as far as the lookback sees)
}

type oddKey struct {
	user string
	hour time.Time
}

type statsBuilder struct {
	r       StatsRange
	first   time.Time // the first bucket's start
	stats   Stats
	counts  []int
	users   map[string]int
	ips     map[string]int
	types   map[string]int
	seen    map[string]*userSeen
	cells   map[string][]burstCell // delete/export type -> per bucket
	logins  []Mark
	odd     map[oddKey]*Mark
	oddKeys []oddKey
}

func newStatsBuilder(r StatsRange) (*statsBuilder, error) {
	if r.By <= 0 {
		r.By = time.Hour
	}
	r.Since, r.Until = r.Since.UTC(), r.Until.UTC()
	first := BucketStart(r.Since, r.By)
	if !r.Since.Before(r.Until) || int64(r.Until.Sub(first)/r.By) >= MaxBuckets {
		return nil, ErrStatsRange
	}
	n := int((r.Until.Sub(first) + r.By - 1) / r.By)
	return &statsBuilder{r: r, first: first, counts: make([]int, n),
		users: map[string]int{}, ips: map[string]int{}, types: map[string]int{},
		seen: map[string]*userSeen{}, cells: map[string][]burstCell{}, odd: map[oddKey]*Mark{}}, nil
}

func (b *statsBuilder) user(name string) *userSeen {
	k := strings.ToLower(name)
	u := b.seen[k]
	if u == nil {
		u = &userSeen{addrs: map[string]time.Time{}, day: -1}
		b.seen[k] = u
	}
	return u
}

// history takes an entry of the lookback before the range: what is usual.
func (b *statsBuilder) history(e store.AuditEntry) {
	u := b.user(e.User)
	if _, ok := u.addrs[e.IP]; !ok {
		u.addrs[e.IP] = e.Time
	}
	u.n++
	u.histN++
	u.hours |= 1 << e.Time.UTC().Hour()
	if d := e.Time.Unix() / 86400; d != u.day {
		u.day, u.days = d, u.days+1
	}
}

// add takes an entry of the range, oldest first.
//
// A login is marked as from a new address when the user never used that
// address before it (in the lookback or earlier in the range), and the
// user is settled: at least SettledEntries entries of theirs came before
// it, from at most a third as many addresses. A user seen on a fresh
// address at nearly every entry (a carrier's pool of addresses, a
// simulator) has no usual address to depart from, so nothing is news.
// Only the first login from each new address is marked.
func (b *statsBuilder) add(e store.AuditEntry) {
	if e.Time.Before(b.r.Since) || !e.Time.Before(b.r.Until) {
		return
	}
	b.stats.Total++
	b.types[e.Type]++
	i := int(e.Time.Sub(b.first) / b.r.By)
	if b.r.Type == "" || strings.EqualFold(e.Type, b.r.Type) {
		b.stats.Counted++
		b.counts[i]++
		b.users[e.User]++
		b.ips[e.IP]++
	}
	u := b.user(e.User)
	firstUse, used := u.addrs[e.IP]
	if !used {
		if IsLoginType(e.Type) && u.n >= SettledEntries && 3*len(u.addrs) <= u.n {
			b.logins = append(b.logins, Mark{Kind: MarkNewAddress, Start: e.Time, End: e.Time.Add(time.Microsecond),
				Type: e.Type, User: e.User, IP: e.IP, Count: 1,
				Why: fmt.Sprintf("%s signed in from %s, an address they had not used before (%d addresses in %d entries)", e.User, e.IP, len(u.addrs), u.n)})
		}
		u.addrs[e.IP], firstUse = e.Time, e.Time
	}
	u.n++
	if IsBurstType(e.Type) {
		b.cell(e, i, firstUse)
	}
	b.oddHour(u, e)
}

func (b *statsBuilder) cell(e store.AuditEntry, i int, firstUse time.Time) {
	key := strings.ToLower(e.Type)
	cs := b.cells[key]
	if cs == nil {
		cs = make([]burstCell, len(b.counts))
		b.cells[key] = cs
	}
	c := &cs[i]
	if c.n == 0 {
		c.typ, c.user, c.ip, c.firstAt, c.firstUse = e.Type, e.User, e.IP, e.Time, firstUse
	} else {
		c.users = c.users || !strings.EqualFold(c.user, e.User)
		c.ips = c.ips || c.ip != e.IP
	}
	c.n++
}

// oddHour marks activity at an hour the user is never active at. Their
// hours are the UTC hours of the day of their entries in the lookback;
// they keep regular hours when those are at least RegularEntries entries
// on at least RegularDays distinct days and fall in at most RegularHours
// of the 24 hours (fifty entries at random hours cover about 21: such a
// user has no hour they are never active at). An entry of the range at
// an hour outside a regular user's is marked, one mark per user and clock
// hour (its entries are the user's in that hour).
func (b *statsBuilder) oddHour(u *userSeen, e store.AuditEntry) {
	if u.histN < RegularEntries || u.days < RegularDays || bits.OnesCount32(u.hours) > RegularHours || u.hours&(1<<e.Time.UTC().Hour()) != 0 {
		return
	}
	k := oddKey{strings.ToLower(e.User), e.Time.UTC().Truncate(time.Hour)}
	m := b.odd[k]
	if m == nil {
		m = &Mark{Kind: MarkOddHour, Start: k.hour, End: k.hour.Add(time.Hour), User: e.User}
		b.odd[k] = m
		b.oddKeys = append(b.oddKeys, k)
	}
	m.Count++
	m.Why = fmt.Sprintf("%s active at %s UTC (%s), an hour they are never active at in the %d days before", e.User, k.hour.Format("15:04"), count(m.Count, "entry", "entries"), int(HistoryLookback.Hours()/24))
}

// bursts finds, for each delete/export type, the runs of adjacent buckets
// whose count of that type is more than BurstFactor times the median of
// that type's counts over every bucket of the range (empty buckets count
// as zero, so for a type seen in under half the buckets the median is 0)
// and whose sum is at least BurstFloor. A run, not a bucket: a burst does
// not stop at the clock's hour, and forty deletions from 03:53 to 04:06
// are one burst, not two halves each under the floor or each listing part
// of it. One mark per type and run: its entries are that type's in the
// run's span, with the address (and user) named when they all share one,
// and said to be new when the user first used it within the range.
func (b *statsBuilder) bursts() []Mark {
	var out []Mark
	counts := make([]int, len(b.counts))
	for _, cs := range b.cells {
		for i := range cs {
			counts[i] = cs[i].n
		}
		slices.Sort(counts)
		median := counts[len(counts)/2]
		if len(counts)%2 == 0 {
			median = (counts[len(counts)/2-1] + counts[len(counts)/2] + 1) / 2
		}
		past := func(i int) bool { return i < len(cs) && cs[i].n > 0 && cs[i].n > BurstFactor*median }
		for i := 0; i < len(cs); i++ {
			if !past(i) {
				continue
			}
			first, run := i, cs[i]
			for ; past(i + 1); i++ {
				run = run.join(cs[i+1])
			}
			if run.n < BurstFloor {
				continue
			}
			start, _ := b.bucket(first)
			_, end := b.bucket(i)
			out = append(out, b.burstMark(run, start, end, median))
		}
	}
	slices.SortFunc(out, func(x, y Mark) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), x.Start.Compare(y.Start), strings.Compare(x.Type, y.Type))
	})
	return out
}

// join is the cells of two adjacent buckets as one (c is the earlier).
func (c burstCell) join(d burstCell) burstCell {
	c.users = c.users || d.users || !strings.EqualFold(c.user, d.user)
	c.ips = c.ips || d.ips || c.ip != d.ip
	c.n += d.n
	return c
}

// burstMark is the mark of a burst of run's entries between start and end.
func (b *statsBuilder) burstMark(c burstCell, start, end time.Time, median int) Mark {
	m := Mark{Kind: MarkBurst, Start: start, End: end, Type: c.typ, Count: c.n}
	from := ""
	if !c.ips {
		m.IP, from = c.ip, " from "+c.ip
		if !c.users && !c.firstUse.Before(b.r.Since) {
			from += fmt.Sprintf(", an address %s first used at %s UTC (never in the %d days before)", c.user, c.firstUse.Format("01-02 15:04"), int(HistoryLookback.Hours()/24))
		}
	}
	if !c.users {
		m.User = c.user
	}
	m.Why = fmt.Sprintf("%d %s between %s and %s UTC (usually %d)%s", c.n, m.Type, start.Format("01-02 15:04"), end.Format("01-02 15:04"), median, from)
	return m
}

// bucket is bucket i's span, clipped to the range.
func (b *statsBuilder) bucket(i int) (time.Time, time.Time) {
	start := b.first.Add(time.Duration(i) * b.r.By)
	end := start.Add(b.r.By)
	if start.Before(b.r.Since) {
		start = b.r.Since
	}
	if end.After(b.r.Until) {
		end = b.r.Until
	}
	return start, end
}

func (b *statsBuilder) result() Stats {
	s := b.stats
	s.StatsRange = b.r
	s.Buckets = make([]Bucket, len(b.counts))
	for i, n := range b.counts {
		start, end := b.bucket(i)
		s.Buckets[i] = Bucket{Start: start, End: end, Count: n}
	}
	s.Users, s.IPs, s.Types = top(b.users, TopN), top(b.ips, TopN), top(b.types, TopN)
	marks := b.bursts()
	rest := slices.Clone(b.logins)
	for _, k := range b.oddKeys {
		rest = append(rest, *b.odd[k])
	}
	slices.SortStableFunc(rest, func(x, y Mark) int { return x.Start.Compare(y.Start) })
	marks = append(marks, rest...)
	if len(marks) > MaxMarks {
		s.MoreMarks = len(marks) - MaxMarks
		marks = marks[:MaxMarks]
	}
	s.Marks = marks
	return s
}
