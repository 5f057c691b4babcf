// This file shares the budget beyond one process. The service applies its
// limits per organisation, not per token or per process, so twelve
// `vaultdeck projects` in a row, two consoles and a `serve` on one machine
// must draw from one budget: a Ledger (the local store) keeps every send,
// keyed by base URL, workspace and category.

package api

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Ledger keeps the budget's record where every process on the machine sees
// it. The store satisfies it; the api package knows nothing else of it.
type Ledger interface {
	// UpdateBudget reads a bucket's sends after since (oldest first) and
	// the time a 429 holds it until, lets update decide what to add, and
	// writes that (sends at the given times; a later hold), all in one
	// write transaction: two processes reserving at once never both get
	// the last slot. update must be quick and pure (it runs inside the
	// transaction, and may run again if the transaction is retried).
	// Records older than since may be pruned.
	UpdateBudget(bucket string, since time.Time,
		update func(sent []time.Time, heldUntil time.Time) (add []time.Time, holdUntil time.Time)) error
}

// workspaceLookupTimeout bounds the whoami that names the ledger's bucket.
const workspaceLookupTimeout = 5 * time.Second

// workspaceCache is the workspace of one token, learnt from whoami (which
// costs no budget) before the first limited request. ask is held only while
// whoami is asked, so concurrent first requests ask once; learnt is read
// without a lock (Budget is read while the console draws).
type workspaceCache struct {
	ask    sync.Mutex
	learnt atomic.Pointer[workspaceOf]
}

type workspaceOf struct {
	token string // hash
	id    string // "" when whoami did not say
}

// workspace returns the workspace ID behind the token whose hash is h, asking
// whoami once per token. "" means unknown: the budget then stays this
// process's own, as before the ledger.
func (c *Client) workspace(ctx context.Context, h string) string {
	if w := c.ws.learnt.Load(); w != nil && w.token == h {
		return w.id
	}
	c.ws.ask.Lock()
	defer c.ws.ask.Unlock()
	if w := c.ws.learnt.Load(); w != nil && w.token == h {
		return w.id
	}
	// The caller's context carries its values (a body copy for the
	// console's cache, a stream's sink, a wait observer) that belong to its
	// own request, not to this whoami: only its cancellation is kept.
	// And it is bounded well below the first-byte timeout: against a
	// service that does not answer, the request itself will say so, and
	// a slow whoami costs only the sharing (the budget falls back to this
	// process's own), not another half minute.
	wctx, cancel := context.WithTimeout(context.Background(), workspaceLookupTimeout)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	who, err := c.WhoAmI(wctx)
	if err != nil {
		if ctx.Err() != nil {
			return "" // not remembered: the next request asks again
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api budget: workspace unknown, the budget is this process's own", slog.String("error", err.Error()))
		who = &WhoAmI{}
	}
	c.ws.learnt.Store(&workspaceOf{token: h, id: who.WorkspaceID})
	return who.WorkspaceID
}

// knownWorkspace is the workspace already learnt for the token hash h, or
// "" (never asks).
func (c *Client) knownWorkspace(h string) string {
	if w := c.ws.learnt.Load(); w != nil && w.token == h {
		return w.id
	}
	return ""
}

// bucketKey names the budget a request draws from. With a ledger and a
// known workspace it is the workspace's, shared with every process and token
// of that workspace on this machine; otherwise the token's, in this process.
func (c *Client) bucketKey(ctx context.Context, tok string, cat Category) (key string, shared bool) {
	h := tokenHash(tok)
	if c.ledger == nil || cat == CategoryNone || c.limits.of(cat) < 0 {
		return budgetKeyHashed(c.base, h, cat), false
	}
	ws := c.workspace(ctx, h)
	if ws == "" {
		return budgetKeyHashed(c.base, h, cat), false
	}
	return workspaceKey(c.base, ws, cat), true
}

// workspaceKey never holds a token or its hash: the ledger is on disk.
func workspaceKey(base, workspace string, cat Category) string {
	return base + "|workspace:" + workspace + "|" + string(cat)
}

// reserveShared is reserve through the ledger: the decision is the same
// sliding log, taken inside the ledger's transaction, and this process's
// copy of the bucket (which Budget and the console's header read without
// touching the disk) is refreshed from what the ledger holds.
func (b *Budgets) reserveShared(l Ledger, key string, limit int, now time.Time) (time.Duration, bool, error) {
	var wait time.Duration
	var ok bool
	var snap bucket
	err := l.UpdateBudget(key, now.Add(-budgetWindow), func(sent []time.Time, held time.Time) ([]time.Time, time.Time) {
		snap = bucket{sent: append([]time.Time(nil), sent...), blockedUntil: held}
		wait, ok = snap.take(limit, now)
		if ok {
			return []time.Time{now}, time.Time{}
		}
		return nil, time.Time{}
	})
	if err != nil {
		return 0, false, err
	}
	b.mirror(key, snap)
	return wait, ok, nil
}

// blockShared is block through the ledger: every process holds off until
// the service's Retry-After. Without one (production documents none), the
// 429 still proves the window is full, with sends of other integrations
// this machine never saw: they are recorded as sent now, up to the limit,
// so no process here tries again before the window can have room.
func (b *Budgets) blockShared(l Ledger, key string, limit int, until time.Time, knownUntil bool, now time.Time) error {
	var snap bucket
	err := l.UpdateBudget(key, now.Add(-budgetWindow), func(sent []time.Time, held time.Time) ([]time.Time, time.Time) {
		add := unseen(len(sent), limit, knownUntil, now)
		snap = bucket{sent: append(append([]time.Time(nil), sent...), add...), blockedUntil: later(held, until)}
		return add, until
	})
	if err != nil {
		return err
	}
	b.mirror(key, snap)
	return nil
}

// unseen is what a 429 without Retry-After adds to a bucket holding have
// sends: the rest of the limit, as sent now.
func unseen(have, limit int, knownUntil bool, now time.Time) []time.Time {
	if knownUntil || limit <= have {
		return nil
	}
	add := make([]time.Time, limit-have)
	for i := range add {
		add[i] = now
	}
	return add
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// mirror replaces this process's copy of a bucket with the ledger's.
func (b *Budgets) mirror(key string, snap bucket) {
	b.mu.Lock()
	defer b.mu.Unlock()
	bk := b.get(key)
	bk.sent = snap.sent
	bk.blockedUntil = later(bk.blockedUntil, snap.blockedUntil)
}
