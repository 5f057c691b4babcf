package api

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"
)

// Category is a rate-limit bucket of the service.
type Category string

// The service's rate-limit categories. CategoryNone (whoami) is not limited.
const (
	CategoryNone    Category = ""
	CategoryVault   Category = "vault"
	CategoryAudit   Category = "audit"
	CategoryMatters Category = "matters"
)

// Default per-minute limits, from the service's published rate limits.
const (
	DefaultVaultLimit   = 10
	DefaultAuditLimit   = 60
	DefaultMattersLimit = 150
)

// Limits are client-side requests per minute per category. Zero takes the
// default; a negative value turns the client-side limit off (benchmarks,
// a simulator started with --no-rate-limit).
type Limits struct {
	Vault   int
	Audit   int
	Matters int
}

// Of is the requests a minute the client allows itself in category c (the
// default when the field is zero; negative: no client-side limit).
func (l Limits) Of(c Category) int { return l.of(c) }

func (l Limits) of(c Category) int {
	pick := func(v, def int) int {
		if v == 0 {
			return def
		}
		return v
	}
	switch c {
	case CategoryVault:
		return pick(l.Vault, DefaultVaultLimit)
	case CategoryAudit:
		return pick(l.Audit, DefaultAuditLimit)
	case CategoryMatters:
		return pick(l.Matters, DefaultMattersLimit)
	}
	return -1
}

// BudgetStatus is what is left of a category's budget.
type BudgetStatus struct {
	Limit     int           // requests per minute; 0 with Unlimited
	Remaining int           // requests that can be sent now without waiting
	ResetIn   time.Duration // until the oldest counted request leaves the window (0 when none counted)
	Unlimited bool
}

// budgetWindow is the window the client enforces. It is a little longer
// than the service's minute so that network jitter between our send time and
// the server's arrival time cannot make the server count one request too
// many.
const budgetWindow = time.Minute + time.Second

// Budgets is the process-wide registry of client-side rate limiters, shared
// by every client built with it: the console, its pollers and background
// jobs draw from the same buckets, so together they stay under the service's
// limits. Buckets are keyed by base URL, a hash of the token (never the
// token itself) and category; with a Ledger (ledger.go), by base URL,
// workspace and category, and then a bucket here is this process's copy of
// the ledger's, read by Budget without touching the disk. The zero value is
// not usable; use NewBudgets.
type Budgets struct {
	mu      sync.Mutex
	buckets map[string]*bucket
}

// NewBudgets returns an empty registry.
func NewBudgets() *Budgets { return &Budgets{buckets: map[string]*bucket{}} }

// bucket is a sliding log of send times: at most limit sends in any window.
// A sliding log (not a token bucket) because the service counts requests per
// minute; a token bucket would allow a burst and then one more request
// within the same minute.
type bucket struct {
	sent         []time.Time
	blockedUntil time.Time // set from a 429's Retry-After
}

// tokenHash identifies a token in bucket keys without revealing it.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:8])
}

func budgetKeyHashed(base, hash string, c Category) string {
	return base + "|" + hash + "|" + string(c)
}

func (b *Budgets) get(key string) *bucket {
	bk := b.buckets[key]
	if bk == nil {
		bk = &bucket{}
		b.buckets[key] = bk
	}
	return bk
}

func (bk *bucket) prune(now time.Time) {
	i := 0
	for i < len(bk.sent) && !bk.sent[i].After(now.Add(-budgetWindow)) {
		i++
	}
	if i > 0 {
		bk.sent = append(bk.sent[:0], bk.sent[i:]...)
	}
}

// reserve records a send at now when the budget allows it; otherwise it
// returns how long to wait before asking again.
func (b *Budgets) reserve(key string, limit int, now time.Time) (time.Duration, bool) {
	if limit < 0 {
		return 0, true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.get(key).take(limit, now)
}

// take is the sliding log's one decision, the same for this process's
// buckets and the ledger's: held by a 429, or full, says how long to wait;
// otherwise the send at now is recorded.
func (bk *bucket) take(limit int, now time.Time) (time.Duration, bool) {
	if now.Before(bk.blockedUntil) {
		return bk.blockedUntil.Sub(now), false
	}
	bk.prune(now)
	if len(bk.sent) >= limit {
		return bk.sent[0].Add(budgetWindow).Sub(now), false
	}
	bk.sent = append(bk.sent, now)
	return 0, true
}

// block marks a bucket exhausted until t: the server said so (429), and
// every caller in the process should hold off, not just the one that hit
// it. Without a Retry-After (knownUntil false) the window is taken as full
// (see blockShared).
func (b *Budgets) block(key string, limit int, until time.Time, knownUntil bool, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	bk := b.get(key)
	bk.prune(now)
	bk.sent = append(bk.sent, unseen(len(bk.sent), limit, knownUntil, now)...)
	bk.blockedUntil = later(bk.blockedUntil, until)
}

func (b *Budgets) status(key string, limit int, now time.Time) BudgetStatus {
	if limit < 0 {
		return BudgetStatus{Unlimited: true}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bk := b.get(key)
	bk.prune(now)
	st := BudgetStatus{Limit: limit, Remaining: max(limit-len(bk.sent), 0)}
	if len(bk.sent) > 0 {
		st.ResetIn = bk.sent[0].Add(budgetWindow).Sub(now)
	}
	if now.Before(bk.blockedUntil) {
		st.Remaining = 0
		st.ResetIn = max(st.ResetIn, bk.blockedUntil.Sub(now))
	}
	return st
}
