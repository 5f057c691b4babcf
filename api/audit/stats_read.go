package audit

import (
	"cmp"
	"context"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// StatsReader is the mirror as the statistics read it: counts made by
// SQLite along its indexes, and the few entries behind a mark.
// *store.Store satisfies it.
type StatsReader interface {
	AuditTypeCounts(ctx context.Context, log string, from, first time.Time, by time.Duration, n int, since, until time.Time) ([]store.AuditTypeCount, error)
	AuditPairs(ctx context.Context, log string, from, since, until time.Time, typ string, logins []string) ([]store.AuditPair, error)
	AuditHours(ctx context.Context, log, user string, since, until time.Time) ([]time.Time, error)
	AuditFacts(ctx context.Context, log string, f store.AuditFilter, fn func(store.AuditEntry) error) error
}

// ReadStats answers r from the mirror's log: the range itself, and the
// HistoryLookback before it for what is usual. The histogram and the top
// lists are counts; each mark is decided from counts too, and only the
// entries that could make one are read: a burst's, a new address's user's
// up to that login, an odd hour's.
func ReadStats(ctx context.Context, m StatsReader, log string, r StatsRange) (Stats, error) {
	r, first, n, err := statsSpan(r)
	if err != nil {
		return Stats{}, err
	}
	rd := statsRead{ctx: ctx, m: m, log: log, r: r, first: first, n: n, from: r.Since.Add(-HistoryLookback)}
	s := Stats{StatsRange: r}
	types, err := m.AuditTypeCounts(ctx, log, rd.from, first, r.By, n, r.Since, r.Until)
	if err != nil {
		return Stats{}, err
	}
	var logins []string
	tally := map[string]int{}
	counts := make([]int, n)
	for _, t := range types {
		c := t.Count()
		s.Total += c
		if c > 0 {
			tally[t.Type] = c
		}
		if IsLoginType(t.Type) {
			logins = append(logins, t.Type)
		}
		if r.Type == "" || fold(r.Type) == fold(t.Type) {
			for i, k := range t.Buckets {
				counts[i] += k
			}
		}
	}
	s.Types = top(tally, TopN)
	s.Buckets = make([]Bucket, n)
	for i, c := range counts {
		start, end := bucketSpan(r, first, i)
		s.Buckets[i] = Bucket{Start: start, End: end, Count: c}
		s.Counted += c
	}
	pairs, err := m.AuditPairs(ctx, log, rd.from, r.Since, r.Until, r.Type, logins)
	if err != nil {
		return Stats{}, err
	}
	users, ips := map[string]int{}, map[string]int{}
	rd.firstUse = map[[2]string]time.Time{}
	byUser := map[string][]store.AuditPair{}
	var order []string
	for _, p := range pairs {
		if p.OfType > 0 {
			users[p.User] += p.OfType
			ips[p.IP] += p.OfType
		}
		k := fold(p.User)
		if _, ok := byUser[k]; !ok {
			order = append(order, k)
		}
		byUser[k] = append(byUser[k], p)
		rd.firstUse[[2]string{k, p.IP}] = p.First
	}
	s.Users, s.IPs = top(users, TopN), top(ips, TopN)
	bursts, err := rd.bursts(types)
	if err != nil {
		return Stats{}, err
	}
	var rest []placed
	for _, k := range order {
		ms, err := rd.newAddresses(byUser[k])
		if err != nil {
			return Stats{}, err
		}
		rest = append(rest, ms...)
		if ms, err = rd.oddHours(byUser[k]); err != nil {
			return Stats{}, err
		}
		rest = append(rest, ms...)
	}
	// By time; at one instant, logins before odd hours, each in the order
	// of the entries that made them (the order a scan of the log finds them).
	slices.SortFunc(rest, func(x, y placed) int {
		return cmp.Or(x.Start.Compare(y.Start), cmp.Compare(kindRank(x.Kind), kindRank(y.Kind)), x.at.Time.Compare(y.at.Time), cmp.Compare(x.at.Seq, y.at.Seq))
	})
	marks := bursts
	for _, p := range rest {
		marks = append(marks, p.Mark)
	}
	if len(marks) > MaxMarks {
		s.MoreMarks = len(marks) - MaxMarks
		marks = marks[:MaxMarks]
	}
	s.Marks = marks
	return s, nil
}

// kindRank: logins come before odd hours at one instant.
func kindRank(k MarkKind) int {
	if k == MarkNewAddress {
		return 0
	}
	return 1
}

// placed is a mark and the entry that made it, for their order.
type placed struct {
	Mark
	at store.AuditPosition
}

// fold is a user's name or a type as the mirror compares it (COLLATE NOCASE:
// ASCII letters ignoring case).
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

type statsRead struct {
	ctx      context.Context
	m        StatsReader
	log      string
	r        StatsRange
	first    time.Time
	n        int
	from     time.Time               // the lookback's start
	firstUse map[[2]string]time.Time // (folded user, address) -> first use since from
}

// bursts: each delete/export type's counts per bucket, its runs, and the
// entries of each run (which name the burst's user and address).
func (rd *statsRead) bursts(types []store.AuditTypeCount) ([]Mark, error) {
	var out []Mark
	for _, t := range types {
		if t.Count() == 0 || !IsBurstType(t.Type) {
			continue
		}
		counts := t.Buckets
		median, runs := burstRuns(counts)
		for _, run := range runs {
			start, _ := bucketSpan(rd.r, rd.first, run[0])
			_, end := bucketSpan(rd.r, rd.first, run[1])
			var c burstCell
			err := rd.m.AuditFacts(rd.ctx, rd.log, store.AuditFilter{Since: start, Until: end, Type: t.Type}, func(e store.AuditEntry) error {
				c.take(e.Type, e.User, e.IP, e.Time, func() time.Time { return rd.firstUse[[2]string{fold(e.User), e.IP}] })
				return nil
			})
			if err != nil {
				return nil, err
			}
			out = append(out, burstMark(rd.r, c, start, end, median))
		}
	}
	sortBursts(out)
	return out, nil
}

// newAddresses marks a login from an address the user never used before
// it (in the lookback or earlier in the range) when the user is settled:
// at least SettledEntries entries of theirs came before it, from at most
// a third as many addresses. A user seen on a fresh address at nearly
// every entry (a carrier's pool of addresses, a simulator) has no usual
// address to depart from, so nothing is news. Only the first login from
// each new address is marked.
//
// The counts say which addresses were first used in the range by a login
// (their first entry and first login are one instant); only for those is
// the user's log read, from the lookback's start up to the last of them,
// to know how settled the user was at each.
func (rd *statsRead) newAddresses(pairs []store.AuditPair) ([]placed, error) {
	var last time.Time
	total := 0
	for _, p := range pairs {
		total += p.Before + p.InRange
		if !p.First.Before(rd.r.Since) && !p.FirstLogin.IsZero() && p.FirstLogin.Equal(p.First) && p.First.After(last) {
			last = p.First
		}
	}
	if last.IsZero() || total <= SettledEntries {
		return nil, nil
	}
	var out []placed
	addrs, n := map[string]bool{}, 0
	err := rd.m.AuditFacts(rd.ctx, rd.log, store.AuditFilter{Since: rd.from, Until: last.Add(time.Microsecond), User: pairs[0].User}, func(e store.AuditEntry) error {
		if !addrs[e.IP] {
			if !e.Time.Before(rd.r.Since) && IsLoginType(e.Type) && settledOn(n, len(addrs)) {
				out = append(out, placed{newAddressMark(e.Time, e.Type, e.User, e.IP, len(addrs), n), e.At()})
			}
			addrs[e.IP] = true
		}
		n++
		return nil
	})
	return out, err
}

// oddHours marks activity at an hour the user is never active at. Their
// hours are the UTC hours of the day of their entries in the lookback;
// they keep regular hours when those are at least RegularEntries entries
// on at least RegularDays distinct days and fall in at most RegularHours
// of the 24 hours (fifty entries at random hours cover about 21: such a
// user has no hour they are never active at). An entry of the range at
// an hour outside a regular user's is marked, one mark per user and clock
// hour (its entries are the user's in that hour).
func (rd *statsRead) oddHours(pairs []store.AuditPair) ([]placed, error) {
	hist, inRange := 0, 0
	for _, p := range pairs {
		hist += p.Before
		inRange += p.InRange
	}
	if hist < RegularEntries || inRange == 0 {
		return nil, nil
	}
	user := pairs[0].User
	usual, err := rd.m.AuditHours(rd.ctx, rd.log, user, rd.from, rd.r.Since)
	if err != nil {
		return nil, err
	}
	var mask uint32
	days := map[int64]bool{}
	for _, h := range usual {
		mask |= 1 << h.Hour()
		days[h.Unix()/86400] = true
	}
	if len(days) < RegularDays || bits.OnesCount32(mask) > RegularHours {
		return nil, nil
	}
	active, err := rd.m.AuditHours(rd.ctx, rd.log, user, rd.r.Since, rd.r.Until)
	if err != nil {
		return nil, err
	}
	var out []placed
	for _, h := range active {
		if mask&(1<<h.Hour()) != 0 {
			continue
		}
		var first store.AuditEntry
		n := 0
		f := store.AuditFilter{Since: maxTime(h, rd.r.Since), Until: minTime(h.Add(time.Hour), rd.r.Until), User: user}
		if err := rd.m.AuditFacts(rd.ctx, rd.log, f, func(e store.AuditEntry) error {
			if n == 0 {
				first = e
			}
			n++
			return nil
		}); err != nil {
			return nil, err
		}
		if n > 0 {
			out = append(out, placed{oddHourMark(first.User, h, n), first.At()})
		}
	}
	return out, nil
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
