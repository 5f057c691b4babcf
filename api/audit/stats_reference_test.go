package audit

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// The statistics as they were computed before issue 27's SQL (one scan of
// every entry of the lookback and the range, in Go): the reference model
// the property test holds ReadStats to (TestStatsSQLMatchesTheScan). The
// rules themselves (constants, runs, the marks' words) are production's.

// userSeen is what is known of one user while the entries go by.
type userSeen struct {
	addrs map[string]time.Time // address -> first use seen
	n     int                  // entries seen (lookback and range so far)
	hours uint32               // bit h: an entry at UTC hour h in the lookback
	histN int                  // entries in the lookback
	days  int                  // distinct UTC days in the lookback
	day   int64                // the last of them (entries come oldest first)
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
	r, first, n, err := statsSpan(r)
	if err != nil {
		return nil, err
	}
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
	m.Why = fmt.Sprintf("%s active at %s UTC (%s), an hour they are never active at in the %s before", m.User, k.hour.Format("15:04"), plural.Count(m.Count, "entry"), plural.Count(int(HistoryLookback.Hours()/24), "day"))
}

// bursts: the runs of each type's cells (runs, as production finds them
// from counts), each one cell joined.
func (b *statsBuilder) bursts() []Mark {
	var out []Mark
	for _, cs := range b.cells {
		counts := make([]int, len(cs))
		for i := range cs {
			counts[i] = cs[i].n
		}
		median, spans := burstRuns(counts)
		for _, sp := range spans {
			run := cs[sp[0]]
			for i := sp[0] + 1; i <= sp[1]; i++ {
				run = joinCells(run, cs[i])
			}
			start, _ := bucketSpan(b.r, b.first, sp[0])
			_, end := bucketSpan(b.r, b.first, sp[1])
			out = append(out, burstMark(b.r, run, start, end, median))
		}
	}
	sortBursts(out)
	return out
}

func (b *statsBuilder) result() Stats {
	s := b.stats
	s.StatsRange = b.r
	s.Buckets = make([]Bucket, len(b.counts))
	for i, n := range b.counts {
		start, end := bucketSpan(b.r, b.first, i)
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

// joinCells is the cells of two adjacent buckets as one (c is the earlier).
func joinCells(c, d burstCell) burstCell {
	if c.n == 0 {
		return d
	}
	if d.n == 0 {
		return c
	}
	c.users = c.users || d.users || !strings.EqualFold(c.user, d.user)
	c.ips = c.ips || d.ips || c.ip != d.ip
	c.n += d.n
	return c
}
