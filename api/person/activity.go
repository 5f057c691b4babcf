package person

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// loginType says an audit type is a sign-in (api/audit's rule, by name:
// auth:login and the add-ins' own sign-ins).
func loginType(t string) bool { return strings.Contains(strings.ToLower(t), "login") }

// readActivity reads the person's entries from the mirror in one pass,
// newest first, over the (log, user, at) index: the last login, the
// addresses with their first and last use, counts by type over 7 and 30
// days, and the latest entries.
func readActivity(ctx context.Context, in Local, r *Report, now time.Time, o Options) error {
	a := &r.Activity
	a.Addresses, a.Last7, a.Last30, a.Latest, a.Since = []Address{}, []TypeCount{}, []TypeCount{}, []Entry{}, o.Since
	if in.Mirror == nil || in.Log == "" {
		a.Missing, a.Job = fillSync, jobSync
		return nil
	}
	st, err := in.Mirror.AuditState(ctx, in.Log)
	if err != nil {
		return err
	}
	if !st.Started() {
		a.Missing, a.Job = fillSync, jobSync
		return nil
	}
	a.From, a.AsOf = "audit mirror", cmp.Or(st.CaughtUp, st.Last)
	if st.Last.After(a.AsOf) {
		a.AsOf = st.Last
	}
	// The whole history from the (user, ip, at, type) index alone, put
	// newest first here; then the entries listed, with their ids, by the
	// (user, at) index: a few rows read from the table, not thousands.
	var facts []store.AuditEntry
	if err := in.Mirror.AuditUserFacts(ctx, in.Log, r.Email, func(e store.AuditEntry) error {
		facts = append(facts, e)
		return nil
	}); err != nil {
		return err
	}
	slices.SortFunc(facts, func(x, y store.AuditEntry) int { return cmp.Or(y.Time.Compare(x.Time), cmp.Compare(y.Seq, x.Seq)) })
	b := newActivity(now, o)
	for _, e := range facts {
		b.add(e)
	}
	b.finish(a)
	f := store.AuditFilter{User: r.Email, Newest: true, Limit: LatestN}
	if !o.Since.IsZero() {
		f.Since, f.Limit = o.Since, MaxLatest
	}
	a.Latest = a.Latest[:0]
	if err := in.Mirror.AuditEntries(ctx, in.Log, f, func(e store.AuditEntry) error {
		a.Latest = append(a.Latest, Entry{ID: e.ID, Time: e.Time, Type: e.Type, IP: e.IP})
		return nil
	}); err != nil {
		return err
	}
	if l := a.LastLogin; l != nil {
		// the one entry at the login's place in the mirror's order, for its id
		at := store.AuditPosition{Time: l.Time, Seq: b.loginSeq}
		if err := in.Mirror.AuditEntries(ctx, in.Log, store.AuditFilter{User: r.Email, Newest: true, Limit: 1,
			Before: store.AuditPosition{Time: at.Time, Seq: at.Seq + 1}}, func(e store.AuditEntry) error {
			l.ID = e.ID
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// activity is the one pass over a person's entries, newest first. Its
// rules are pure (tested without a mirror).
type activity struct {
	now   time.Time
	o     Options
	total int
	login *Entry
	// loginSeq is the last login's place among entries of one instant.
	loginSeq int64
	ips      map[string]*Address
	order    []string // addresses by most recent use
	d7       map[string]int
	d30      map[string]int
	latest   []Entry
	oldest   time.Time
}

func newActivity(now time.Time, o Options) *activity {
	return &activity{now: now, o: o, ips: map[string]*Address{}, d7: map[string]int{}, d30: map[string]int{}}
}

func (b *activity) add(e store.AuditEntry) {
	b.total++
	b.oldest = e.Time // newest first: the last seen is the oldest
	en := Entry{ID: e.ID, Time: e.Time, Type: e.Type, IP: e.IP}
	if b.login == nil && loginType(e.Type) {
		b.login, b.loginSeq = &en, e.Seq
	}
	if e.IP != "" {
		ad := b.ips[e.IP]
		if ad == nil {
			ad = &Address{IP: e.IP, Last: e.Time}
			b.ips[e.IP] = ad
			b.order = append(b.order, e.IP)
		}
		ad.First = e.Time
		ad.Count++
	}
	age := b.now.Sub(e.Time)
	if age <= 30*24*time.Hour {
		b.d30[e.Type]++
		if age <= 7*24*time.Hour {
			b.d7[e.Type]++
		}
	}
	switch {
	case !b.o.Since.IsZero():
		if !e.Time.Before(b.o.Since) && len(b.latest) < MaxLatest {
			b.latest = append(b.latest, en)
		}
	case len(b.latest) < LatestN:
		b.latest = append(b.latest, en)
	}
}

// finish writes the result. An address is new when its first use is
// within NewWithin of now and the person has older entries from another
// address: someone whose whole history is this week has no "usual" to
// compare with.
func (b *activity) finish(a *Activity) {
	a.Total, a.LastLogin, a.Latest = b.total, b.login, b.latest
	a.Addresses = make([]Address, 0, len(b.order))
	for _, ip := range b.order {
		ad := *b.ips[ip]
		ad.New = b.now.Sub(ad.First) <= NewWithin && ad.First.After(b.oldest)
		a.Addresses = append(a.Addresses, ad)
	}
	a.Last7, a.Last30 = tallies(b.d7), tallies(b.d30)
}

func tallies(m map[string]int) []TypeCount {
	out := make([]TypeCount, 0, len(m))
	for t, n := range m {
		out = append(out, TypeCount{t, n})
	}
	slices.SortFunc(out, func(a, b TypeCount) int { return cmp.Or(b.Count-a.Count, strings.Compare(a.Type, b.Type)) })
	return out
}
