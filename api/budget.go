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

// prune drops the sends that have left the window, and applies the
// ledger's rule to what lies after now (store.UpdateBudget): the clock of
// a long-running process (the console, serve) can be set back under it,
// and a time from the future would hold it for as long as the clock jumped.
// A send more than a window ahead is dropped, one less ahead counts as sent
// now, a hold more than the longest hold ahead is dropped. It returns how
// far ahead the furthest of those was (0: none).
func (bk *bucket) prune(now time.Time) time.Duration {
	var ahead time.Duration
	if n := len(bk.sent); n > 0 && bk.sent[n-1].After(now) {
		ahead = bk.sent[n-1].Sub(now)
		keep := bk.sent[:0]
		for _, t := range bk.sent {
			switch {
			case t.After(now.Add(budgetWindow)):
				continue
			case t.After(now):
				t = now
			}
			keep = append(keep, t)
		}
		bk.sent = keep
	}
	if bk.blockedUntil.After(now.Add(MaxRetryAfter)) {
		ahead = max(ahead, bk.blockedUntil.Sub(now))
		bk.blockedUntil = time.Time{}
	}
	i := 0
	for i < len(bk.sent) && !bk.sent[i].After(now.Add(-budgetWindow)) {
		i++
	}
	if i > 0 {
		bk.sent = append(bk.sent[:0], bk.sent[i:]...)
	}
	return ahead
}

// waitUntil is the wait from now until t, never negative and never more
// than ceiling: every wait that comes from a stored time passes here.
func waitUntil(t, now time.Time, ceiling time.Duration) time.Duration {
	return min(max(t.Sub(now), 0), ceiling) // Sub saturates rather than overflow
}

// reserve records a send at now when the budget allows it; otherwise it
// returns how long to wait before asking again.
// ahead is as prune's: how far ahead of now the times it dropped were.
func (b *Budgets) reserve(key string, limit int, now time.Time) (wait time.Duration, ok bool, ahead time.Duration) {
	if limit < 0 {
		return 0, true, 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bk := b.get(key)
	ahead = bk.prune(now)
	wait, ok = bk.take(limit, now)
	return wait, ok, ahead
}

// take is the sliding log's one decision, the same for this process's
// buckets and the ledger's: held by a 429, or full, says how long to wait;
// otherwise the send at now is recorded.
func (bk *bucket) take(limit int, now time.Time) (time.Duration, bool) {
	if d, free := bk.wait(limit, now); !free {
		return d, false
	}
	bk.sent = append(bk.sent, now)
	return 0, true
}

// wait is take without the taking: how long until a send may go (free:
// now).
// Held by a 429 and full at once, the wait is the longer of the two, so
// that it is one wait (one line), not a short one and then another.
func (bk *bucket) wait(limit int, now time.Time) (d time.Duration, free bool) {
	bk.prune(now)
	if now.Before(bk.blockedUntil) {
		d = waitUntil(bk.blockedUntil, now, MaxRetryAfter)
	}
	// A slot frees when the send that makes the log full leaves: the
	// oldest, unless a 429 has added unseen sends past the limit.
	if n := len(bk.sent); n >= limit && n > 0 {
		d = max(d, waitUntil(bk.sent[n-max(limit, 1)].Add(budgetWindow), now, budgetWindow))
	}
	return d, d == 0
}

// wait is how long the bucket holds a send from now, as this process last
// saw it (0: a slot is free), and whether a 429's hold is part of it.
func (b *Budgets) wait(key string, limit int, now time.Time) (d time.Duration, held bool) {
	if limit < 0 {
		return 0, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bk := b.get(key)
	d, _ = bk.wait(limit, now)
	return d, now.Before(bk.blockedUntil)
}

// block marks a bucket exhausted for hold: the server said so (429), and
// every caller in the process should hold off, not just the one that hit
// it. Without a Retry-After (knownUntil false) the window is taken as full
// (see blockShared).
func (b *Budgets) block(key string, limit int, hold time.Duration, knownUntil bool, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	bk := b.get(key)
	bk.prune(now)
	bk.sent = append(bk.sent, unseen(bk.sent, limit, knownUntil, now)...)
	bk.blockedUntil = later(bk.blockedUntil, now.Add(min(max(hold, 0), MaxRetryAfter)))
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
		st.ResetIn = waitUntil(bk.sent[0].Add(budgetWindow), now, budgetWindow)
	}
	if now.Before(bk.blockedUntil) {
		st.Remaining = 0
		st.ResetIn = max(st.ResetIn, waitUntil(bk.blockedUntil, now, MaxRetryAfter))
	}
	return st
}
