package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// WaitReason says why the client is pausing before a request.
type WaitReason int

// Why a request waits.
const (
	WaitBudget     WaitReason = iota // the client-side per-minute budget is spent
	WaitRetryAfter                   // the service said when to come back (429/503 Retry-After)
	WaitBackoff                      // a transient failure, retried after a jittered backoff
)

// Wait describes one pause, reported before it starts, so that a command
// can print "waiting 42s for the vault budget (10 requests a minute)" and
// the console can show a countdown where the data will appear.
type Wait struct {
	Endpoint string // "GET /api/v1/vault/workspace/projects"
	Reason   WaitReason
	Category Category      // the budget's category (budget waits)
	Limit    int           // the budget's requests a minute (budget waits)
	Status   int           // the status being retried (0 after a timeout)
	For      time.Duration // how long
	// Held: a budget wait that a 429's hold is part of (the service's
	// answer to this or another vaultdeck process of the machine).
	Held  bool
	Until time.Time // when it ends, on the client's clock
}

// String is the one line a headless command prints.
func (w Wait) String() string {
	d := roundUp(w.For)
	if w.Status == 429 && w.Reason != WaitBudget {
		// Said plainly, because for an upload it is the difference between
		// "lost" and "not sent": a 429 means the service accepted nothing.
		return fmt.Sprintf("waiting %s: the service's %s rate limit was reached (429, nothing was accepted); %s is sent again then", d, w.Category, w.Endpoint)
	}
	switch w.Reason {
	case WaitBudget:
		if w.Held {
			return fmt.Sprintf("waiting %s for the %s budget: the service answered 429 (its rate limit) to vaultdeck on this machine, and every %s request waits until then", d, w.Category, w.Category)
		}
		return fmt.Sprintf("waiting %s for the %s budget (%s a minute)", d, w.Category, plural.Count(w.Limit, "request"))
	case WaitRetryAfter:
		return fmt.Sprintf("waiting %s: the service asked to retry %s later (%d)", d, w.Endpoint, w.Status)
	default:
		if w.Status == 0 {
			return fmt.Sprintf("waiting %s before retrying %s (it did not answer in time)", d, w.Endpoint)
		}
		return fmt.Sprintf("waiting %s before retrying %s (%d)", d, w.Endpoint, w.Status)
	}
}

type waitKey struct{}

// WithWaitObserver returns a context whose requests report each wait to fn
// before it starts. fn runs on the requesting goroutine and must not block
// (a Bubble Tea program sends a message; a command writes a line).
func WithWaitObserver(ctx context.Context, fn func(Wait)) context.Context {
	return context.WithValue(ctx, waitKey{}, fn)
}

// WaitObserver is ctx's observer of waits (nil: none).
func WaitObserver(ctx context.Context) func(Wait) {
	fn, _ := ctx.Value(waitKey{}).(func(Wait))
	return fn
}

// AlsoObserveWaits is WithWaitObserver keeping ctx's own observer: both
// are told, the earlier first (a command's wait line and a job's progress).
func AlsoObserveWaits(ctx context.Context, fn func(Wait)) context.Context {
	prev, _ := ctx.Value(waitKey{}).(func(Wait))
	if prev == nil {
		return WithWaitObserver(ctx, fn)
	}
	return WithWaitObserver(ctx, func(w Wait) { prev(w); fn(w) })
}

func (c *Client) observeWait(ctx context.Context, w Wait) {
	if fn, ok := ctx.Value(waitKey{}).(func(Wait)); ok && fn != nil {
		w.Until = c.clock.Now().Add(w.For)
		fn(w)
	}
}

// ErrNotSent is the cause of a call given up while it waited before going
// out (WithStopBeforeSending): the service received nothing of it.
var ErrNotSent = errors.New("stopped before it was sent")

type stopKey struct{}

// WithStopBeforeSending returns a context whose requests give up a pause
// before they are sent (the budget, a 429's Retry-After) as soon as stop
// ends, failing with ErrNotSent. An upload needs the answer to a request once
// it is on the wire, so its ctx outlives the user's first Ctrl-C; while it
// only waits its turn nothing is out, and that Ctrl-C must act at once.
func WithStopBeforeSending(ctx, stop context.Context) context.Context {
	return context.WithValue(ctx, stopKey{}, stop)
}

// stopped reports whether ctx's WithStopBeforeSending stop has ended.
func stopped(ctx context.Context) bool {
	stop, ok := ctx.Value(stopKey{}).(context.Context)
	return ok && stop.Err() != nil
}

// pause sleeps d before a request is (re)sent. unsent says nothing of the
// call may have reached the service yet (no attempt, or only 429s): only
// then does a WithStopBeforeSending stop end the pause, with ErrNotSent.
func (c *Client) pause(ctx context.Context, ep endpoint, d time.Duration, unsent bool) error {
	sleepCtx := ctx
	if stop, ok := ctx.Value(stopKey{}).(context.Context); ok && unsent {
		var cancel context.CancelFunc
		sleepCtx, cancel = context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(stop, cancel)()
	}
	if err := c.clock.Sleep(sleepCtx, d); err != nil {
		if ctx.Err() == nil && unsent && stopped(ctx) {
			return canceled(ep, ErrNotSent)
		}
		return canceled(ep, err)
	}
	return nil
}

// retryWaits is the waiting one call has done since its first answer, and
// the most it may do (RetryPolicy.MaxWait): the README's promise of 3
// minutes of waiting in all holds for every kind of wait a retry meets
// (Retry-After, backoff, the budget a 429 filled), not only the first.
type retryWaits struct {
	spent, max time.Duration
}

// allows says whether a wait of d still keeps the promise.
func (r *retryWaits) allows(d time.Duration) bool { return r.spent+d <= r.max }

// noticeLimit bounds the notes a client remembers having said: a server
// changing its bad header on every answer must not grow memory.
const noticeLimit = 64

// notices remembers what a client has said, so one bad answer (a header
// value, the ledger's rows from the future) is one line, not one a retry
// or a request.
type notices struct {
	mu   sync.Mutex
	said map[string]bool
}

// notice says msg once per client for key: to Config.Notice (a command's
// stderr), or else to the log as a warning.
func (c *Client) notice(ctx context.Context, key, msg string) {
	c.notes.mu.Lock()
	if c.notes.said[key] {
		c.notes.mu.Unlock()
		return
	}
	if c.notes.said == nil || len(c.notes.said) >= noticeLimit {
		c.notes.said = map[string]bool{}
	}
	c.notes.said[key] = true
	c.notes.mu.Unlock()
	if c.noticeFn != nil {
		c.noticeFn(msg)
		return
	}
	c.log.LogAttrs(ctx, slog.LevelWarn, msg)
}

// sayAhead says that the budget's record held times after now, which this
// machine's clock cannot have written unless it was set back (or an older
// vaultdeck wrote an unbounded hold). Those beyond the window were cleared
// and nearer ones count as sent now (the store's clearFuture), so they hold
// a request for at most the window; a later call finds nothing to say.
func (c *Client) sayAhead(ctx context.Context, ahead time.Duration) {
	if ahead <= 0 {
		return
	}
	c.notice(ctx, "ledger ahead", fmt.Sprintf("the request budget shared by vaultdeck on this machine held times up to %s after this machine's clock (the clock was set back, or an older vaultdeck wrote an unbounded hold); vaultdeck no longer trusts them: they hold a request for at most the rate window (a minute), not the time the clock jumped",
		roughly(ahead)))
}
