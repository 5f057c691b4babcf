package audit_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// shapeLog is an audit service in memory over a log of a given shape
// (steady, in bursts sharing one instant, sparse with long gaps), which
// counts the requests it answers and the entries it sends: what reading it
// costs a real service's rate limit and an admin's wait. Its search finds
// the first entry (of the type) at or after a whole second, as the
// service's does; its listing goes forward by id.
type shapeLog struct {
	mu       sync.Mutex
	log      []api.Item[api.AuditEntry] // ids ascending
	requests int
	sent     int
}

type apiItem = api.Item[api.AuditEntry]

var shapeTypes = []string{"auth:login", "api:audit_log_fetch", "api:vault_delete_project", "word:draft"}

// shapeEntry is entry i of a shaped log, stamped at.
func shapeEntry(i int, at time.Time, typ, user string) api.Item[api.AuditEntry] {
	e := api.AuditEntry{ID: fmt.Sprintf("0199a87e-0000-7000-8000-%012d", i), Type: api.AuditType(typ),
		Timestamp: api.Time{Time: at}, User: user}
	raw := fmt.Appendf(nil, `{"id":%q,"timestamp":%q,"type":%q,"user":%q}`, e.ID, at.Format(time.RFC3339Nano), typ, user)
	return api.Item[api.AuditEntry]{Value: e, JSON: raw}
}

// newShapeLog is a log of the given entry times (ascending but for
// jitter), the types in turn and one user in every rareUser entries being
// rare@example.com.
func newShapeLog(times []time.Time, rareUser int) *shapeLog {
	l := &shapeLog{}
	for i, at := range times {
		user := fmt.Sprintf("u%d@example.com", i%7)
		if rareUser > 0 && i%rareUser == rareUser/2 {
			user = "rare@example.com"
		}
		typ := shapeTypes[i%len(shapeTypes)]
		if i%50 != 7 && typ == "word:draft" {
			typ = "auth:login" // word:draft is rare: one entry in 200
		}
		l.log = append(l.log, shapeEntry(i+1, at, typ, user))
	}
	return l
}

// Shapes of log time ending at end, n entries each.
func uniformTimes(end time.Time, n int, every time.Duration) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = end.Add(-time.Duration(n-i) * every)
	}
	return out
}

// burstyTimes: bursts of up to most entries stamped with one instant, a
// random quiet between them (up to an hour).
func burstyTimes(end time.Time, n, most int, rng *rand.Rand) []time.Time {
	var out []time.Time
	at := end
	for len(out) < n {
		k := min(1+rng.IntN(most), n-len(out))
		for range k {
			out = append(out, at)
		}
		at = at.Add(-time.Duration(rng.Int64N(int64(time.Hour))))
	}
	slicesReverseTimes(out)
	return out
}

// sparseTimes: mostly minutes apart, now and then a gap of days or months,
// reaching past the service's year of search.
func sparseTimes(end time.Time, n int, rng *rand.Rand) []time.Time {
	out := make([]time.Time, n)
	at := end
	for i := n - 1; i >= 0; i-- {
		out[i] = at
		gap := time.Duration(rng.Int64N(int64(20 * time.Minute)))
		if rng.IntN(400) == 0 {
			gap = time.Duration(rng.Int64N(int64(90 * 24 * time.Hour)))
		}
		at = at.Add(-gap)
	}
	return out
}

// jittered moves some times back by up to half a second: the listing lets
// an entry's time lie up to api.AuditTimeSlack before one listed ahead.
func jittered(ts []time.Time, rng *rand.Rand) []time.Time {
	for i := range ts {
		if rng.IntN(5) == 0 {
			ts[i] = ts[i].Add(-time.Duration(rng.Int64N(int64(500 * time.Millisecond))))
		}
	}
	return ts
}

func slicesReverseTimes(ts []time.Time) {
	for i, j := 0, len(ts)-1; i < j; i, j = i+1, j-1 {
		ts[i], ts[j] = ts[j], ts[i]
	}
}

func (l *shapeLog) count(sent int) {
	l.mu.Lock()
	l.requests++
	l.sent += sent
	l.mu.Unlock()
}

// costs is the requests answered and the entries sent so far.
func (l *shapeLog) costs() (requests, sent int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.requests, l.sent
}

func ofType(it api.Item[api.AuditEntry], typ string) bool {
	return typ == "" || strings.EqualFold(string(it.Value.Type), typ)
}

func (l *shapeLog) one(i int) (*api.Item[api.AuditEntry], error) {
	if i < 0 || i >= len(l.log) {
		l.count(0)
		return nil, nil
	}
	l.count(1)
	it := l.log[i]
	return &it, nil
}

func (l *shapeLog) WhoAmI(context.Context) (*api.WhoAmI, error) {
	return &api.WhoAmI{WorkspaceID: "w"}, nil
}
func (l *shapeLog) Base() string                         { return "http://shape.test" }
func (l *shapeLog) Budget(api.Category) api.BudgetStatus { return api.BudgetStatus{Unlimited: true} }

func (l *shapeLog) AuditEarliest(_ context.Context, typ string) (*api.Item[api.AuditEntry], error) {
	for i := range l.log {
		if ofType(l.log[i], typ) {
			return l.one(i)
		}
	}
	return l.one(-1)
}

func (l *shapeLog) AuditLatest(_ context.Context, typ string) (*api.Item[api.AuditEntry], error) {
	for i := len(l.log) - 1; i >= 0; i-- {
		if ofType(l.log[i], typ) {
			return l.one(i)
		}
	}
	return l.one(-1)
}

// AuditSearch: the first entry in the listing's order stamped at or
// after t's whole second.
func (l *shapeLog) AuditSearch(_ context.Context, t time.Time, typ string) (*api.Item[api.AuditEntry], error) {
	t = t.Truncate(time.Second)
	for i := range l.log {
		if !l.log[i].Value.Timestamp.Before(t) && ofType(l.log[i], typ) {
			return l.one(i)
		}
	}
	return l.one(-1)
}

func (l *shapeLog) AuditPage(_ context.Context, from string, take int, typ string) (api.AuditPage, error) {
	take = min(max(take, 1), api.MaxAuditTake)
	i := sort.Search(len(l.log), func(i int) bool { return l.log[i].Value.ID > from })
	var p api.AuditPage
	for ; i < len(l.log) && len(p.Entries) < take; i++ {
		if ofType(l.log[i], typ) {
			p.Entries = append(p.Entries, l.log[i])
		}
	}
	p.Listed, p.Full = len(p.Entries), len(p.Entries) == take
	if p.Listed > 0 {
		p.Last = p.Entries[p.Listed-1].Value.ID
	}
	l.count(p.Listed)
	return p, nil
}
