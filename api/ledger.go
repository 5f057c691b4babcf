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
	// UpdateBudget reads the clock once inside one write transaction (two
	// processes reserving at once never both get the last slot), and at
	// that now: clears what no process of this machine can have written
	// (sends more than window after now, holds more than maxHold after
	// it: a clock set back, an older binary's unbounded hold) and counts
	// sends less than a window ahead as sent now; reads the bucket's sends
	// after now-window (oldest first) and the time a 429 holds it until;
	// lets update decide what to add; and writes that (sends at the given
	// times, none later than now; a later hold, at most now+maxHold).
	// update must be quick and pure (it runs inside the transaction, and
	// may run again if the transaction is retried). ahead is how far after
	// now the furthest cleared row was (0: none). Records older than the
	// window may be pruned.
	UpdateBudget(bucket string, clock func() time.Time, window, maxHold time.Duration,
		update func(now time.Time, sent []time.Time, heldUntil time.Time) (add []time.Time, holdUntil time.Time)) (ahead time.Duration, err error)
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
	token    string // hash
	id, name string // "" when whoami did not say
}

// workspace returns the workspace ID behind the token whose hash is h, asking
// whoami once per token. "" means unknown: the budget then stays this
// process's own, as before the ledger.
func (c *Client) workspace(ctx context.Context, h string) string {
	return c.workspaceOf(ctx, h).id
}

// workspaceOf is workspace with the workspace's name (workspace.go).
func (c *Client) workspaceOf(ctx context.Context, h string) workspaceOf {
	if w := c.ws.learnt.Load(); w != nil && w.token == h {
		return *w
	}
	c.ws.ask.Lock()
	defer c.ws.ask.Unlock()
	if w := c.ws.learnt.Load(); w != nil && w.token == h {
		return *w
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
			return workspaceOf{} // not remembered: the next request asks again
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api budget: workspace unknown, the budget is this process's own", slog.String("error", err.Error()))
		who = &WhoAmI{}
	}
	w := workspaceOf{token: h, id: who.WorkspaceID, name: who.WorkspaceName}
	c.ws.learnt.Store(&w)
	return w
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
func (b *Budgets) reserveShared(l Ledger, key string, limit int, clock func() time.Time) (wait time.Duration, ok bool, ahead time.Duration, err error) {
	var snap bucket
	ahead, err = l.UpdateBudget(key, clock, budgetWindow, MaxRetryAfter, func(now time.Time, sent []time.Time, held time.Time) ([]time.Time, time.Time) {
		snap = bucket{sent: append([]time.Time(nil), sent...), blockedUntil: held}
		wait, ok = snap.take(limit, now)
		if ok {
			return []time.Time{now}, time.Time{}
		}
		return nil, time.Time{}
	})
	if err != nil {
		return 0, false, 0, err
	}
	b.mirror(key, snap)
	return wait, ok, ahead, nil
}

// blockShared is block through the ledger: every process holds off for
// hold (the service's Retry-After, already bounded) from answered, when the
// answer came (never past the ledger's now plus the maximum).
// Without one (production documents none), the 429 still proves the window
// is full, with sends of other integrations this machine never saw: they
// are recorded as sent now, up to the limit, so no process here tries again
// before the window can have room.
func (b *Budgets) blockShared(l Ledger, key string, limit int, hold time.Duration, knownUntil bool, answered time.Time, clock func() time.Time) (time.Duration, error) {
	var snap bucket
	ahead, err := l.UpdateBudget(key, clock, budgetWindow, MaxRetryAfter, func(now time.Time, sent []time.Time, held time.Time) ([]time.Time, time.Time) {
		until := answered.Add(min(max(hold, 0), MaxRetryAfter))
		if limit := now.Add(MaxRetryAfter); until.After(limit) {
			until = limit
		}
		add := unseen(sent, limit, knownUntil, now)
		snap = bucket{sent: append(append([]time.Time(nil), sent...), add...), blockedUntil: later(held, until)}
		return add, until
	})
	if err != nil {
		return 0, err
	}
	b.mirror(key, snap)
	return ahead, nil
}

// unseen is what a 429 without Retry-After adds to a bucket's sends: the
// answer proves the service's window full at now, with requests this
// machine never saw, so the window counts as full from now: as many sends
// at now as make limit of them. Sends recorded before now do not count
// towards it, for they leave the window sooner: counted, a 429 a moment
// before they left added nothing, and the next retry went out seconds
// later into the same full window.
func unseen(sent []time.Time, limit int, knownUntil bool, now time.Time) []time.Time {
	have := 0
	for _, t := range sent {
		if !t.Before(now) {
			have++
		}
	}
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
