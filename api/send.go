// This file runs one call: it takes the token, waits for the budget, and
// retries what the service's limits allow (Retry-After, backoff, timeouts of
// repeatable requests). One attempt on the wire is in attempt.go.

package api

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// call is one request: where it goes and how to build its body.
type call struct {
	ep    endpoint
	path  string // escaped, relative to the base
	query url.Values
	// body builds a fresh body for each attempt; finish (may be nil) is
	// called once the transport is done with it and reports a failure of
	// the body producer, which then wins over the transport's error.
	body func() (rc io.ReadCloser, contentType string, finish func() error, err error)
	// length is the body's exact size when known (> 0), sent as
	// Content-Length instead of a chunked body.
	length int64
	keep   []int // non-2xx statuses the caller interprets itself
}

func canceled(ep endpoint, cause error) *Error {
	return &Error{Kind: KindCanceled, Endpoint: ep.String(), Err: cause}
}

// send runs a call: token, budget, request, retries. It returns a response
// whose status is 2xx or in cl.keep; the caller reads and closes its body.
func (c *Client) send(ctx context.Context, cl call) (*http.Response, redact.Redactor, error) {
	if err := ctx.Err(); err != nil {
		return nil, redact.Redactor{}, canceled(cl.ep, err)
	}
	tok, err := c.token(ctx, cl.ep)
	if err != nil {
		return nil, redact.Redactor{}, err
	}
	red := c.currentRedactor()
	if err := c.checkWorkspace(ctx, cl.ep, tok); err != nil {
		return nil, red, err
	}
	key, shared := c.bucketKey(ctx, tok, cl.ep.cat)
	limit := c.limits.of(cl.ep.cat)
	bo := newBackoff()
	// retry bounds the waiting that follows the first answer (every wait:
	// a Retry-After, a backoff, the budget's), so one request's retries keep
	// the promised total (RetryPolicy.MaxWait); last is what that answer
	// said, returned when the next wait would break the promise.
	retry := retryWaits{max: c.retry.MaxWait}
	var last *Error
	timeouts := 0
	// unsent: no attempt yet, or only 429s, so the service holds nothing of
	// this call and a stop before sending (WithStopBeforeSending) may act.
	unsent := true
	for attempt := 0; ; attempt++ {
		if err := c.waitBudget(ctx, cl.ep, key, limit, shared, unsent, &retry, last); err != nil {
			return nil, red, err
		}
		if unsent && stopped(ctx) {
			return nil, red, canceled(cl.ep, ErrNotSent)
		}
		if err := checkBeforeSending(ctx, cl.ep, unsent); err != nil {
			return nil, red, err
		}
		resp, err := c.attempt(ctx, cl, tok, red, key, limit, attempt)
		if err != nil {
			var te *Error
			if !errors.As(err, &te) || te.Kind != KindTimeout || !cl.ep.idempotent || timeouts >= maxTimeoutRetries {
				return nil, red, err
			}
			timeouts++
			unsent = false
			last = te
			wait := min(bo.NextBackOff(), maxBackoff)
			if !retry.allows(wait) {
				return nil, red, err
			}
			c.observeWait(ctx, Wait{Endpoint: cl.ep.String(), Reason: WaitBackoff, For: wait})
			c.log.LogAttrs(ctx, slog.LevelDebug, "api retry after timeout",
				slog.String("method", cl.ep.method), slog.String("path", red.String(cl.path)),
				slog.Duration("wait", wait), slog.Int("attempt", attempt+1))
			if err := c.pause(ctx, cl.ep, wait, false); err != nil {
				return nil, red, err
			}
			retry.spent += wait
			continue
		}
		if resp.StatusCode/100 == 2 {
			c.tokenOK.Store(true)
			return resp, red, nil
		}
		if slices.Contains(cl.keep, resp.StatusCode) {
			return resp, red, nil
		}
		body := readErrorBody(resp)
		if surplus(resp) {
			return nil, red, surplusError(cl.ep, resp)
		}
		apiErr := c.statusError(cl.ep, resp.StatusCode, body, red)
		if !retryable(resp.StatusCode) {
			c.refineForbidden(ctx, cl.ep, apiErr)
			return nil, red, apiErr
		}
		last = apiErr
		now := c.clock.Now()
		wait, ok, clamped, note, raw := retryAfter(resp.Header, now, red)
		if note != "" {
			c.notice(ctx, "Retry-After "+redact.Truncate(raw, 100), note)
		}
		// The backoff is a floor even under a Retry-After: `Retry-After: 0`
		// (or 1) answered every time must not become a loop as fast as the
		// service answers. The error says when to come back (what the
		// service asked, or when the budget frees), not this pacing.
		reason := WaitRetryAfter
		backoff := min(bo.NextBackOff(), maxBackoff)
		if !ok {
			wait, reason = backoff, WaitBackoff
		}
		asked := wait
		apiErr.RetryAfter = asked
		wait = max(wait, backoff)
		limited := resp.StatusCode == http.StatusTooManyRequests
		unsent = unsent && limited
		if limited {
			// Everyone sharing the bucket holds off. A Retry-After past the
			// maximum is no one's to believe: this request waits the
			// maximum, but the ledger keeps only what the 429 itself
			// proves (the window is full), so one hostile answer does not
			// hold every later process on a healthy service.
			if clamped {
				c.block(ctx, key, limit, shared, 0, false, now)
			} else {
				c.block(ctx, key, limit, shared, asked, ok, now)
			}
			// The 429 has filled or held the budget: waiting for it is
			// this same wait, said once, not a second one after it.
			budget, _ := c.budgets.wait(key, limit, c.clock.Now())
			wait = max(wait, budget)
			apiErr.RetryAfter = max(apiErr.RetryAfter, budget)
		}
		// A 429 proves the service accepted nothing, so even a request that
		// is not safe to repeat (an upload, an upsert, a project deletion)
		// is sent again; a 502, 503 or 504 proves nothing of the kind.
		if !(cl.ep.idempotent || limited) || attempt >= c.retry.MaxRetries || !retry.allows(wait) {
			return nil, red, apiErr
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api retry",
			slog.String("method", cl.ep.method), slog.String("path", red.String(cl.path)),
			slog.Int("status", resp.StatusCode), slog.Duration("wait", wait), slog.Int("attempt", attempt+1))
		c.observeWait(ctx, Wait{Endpoint: cl.ep.String(), Reason: reason, Category: cl.ep.cat, Status: resp.StatusCode, For: wait})
		if err := c.pause(ctx, cl.ep, wait, unsent); err != nil {
			return nil, red, err
		}
		retry.spent += wait
	}
}

// waitBudget blocks until the category's budget allows one more request.
// Once the call has had an answer (last), its waits count towards the
// retries' total, and one that would pass it ends the call with that
// answer, saying how long the budget would have held it.
func (c *Client) waitBudget(ctx context.Context, ep endpoint, key string, limit int, shared, unsent bool, retry *retryWaits, last *Error) error {
	for {
		d, ok := c.reserve(ctx, key, limit, shared)
		if ok {
			return nil
		}
		if last != nil && !retry.allows(d) {
			if last.Kind == KindRateLimited || last.RetryAfter > 0 {
				last.RetryAfter = max(last.RetryAfter, d)
			}
			return last
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api budget wait",
			slog.String("category", string(ep.cat)), slog.Duration("wait", d))
		_, held := c.budgets.wait(key, limit, c.clock.Now())
		c.observeWait(ctx, Wait{Endpoint: ep.String(), Reason: WaitBudget, Category: ep.cat, Limit: limit, For: d, Held: held})
		if err := c.pause(ctx, ep, d, unsent); err != nil {
			return err
		}
		if last != nil {
			retry.spent += d
		}
	}
}

// reserve takes a slot from the ledger when the bucket is shared. When the
// ledger cannot be used (a locked or full disk), the process's own budget
// stands in: it still knows this process's sends and the ledger's last state.
func (c *Client) reserve(ctx context.Context, key string, limit int, shared bool) (time.Duration, bool) {
	if shared && limit >= 0 {
		d, ok, ahead, err := c.budgets.reserveShared(c.ledger, key, limit, c.clock.Now)
		if err == nil {
			c.sayAhead(ctx, ahead)
			return d, ok
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api budget: the shared ledger failed, using this process's budget", slog.String("error", err.Error()))
	}
	d, ok, ahead := c.budgets.reserve(key, limit, c.clock.Now())
	c.sayAhead(ctx, ahead)
	return d, ok
}

// block records a 429's hold (already bounded) in the ledger (every
// process holds off) and here.
func (c *Client) block(ctx context.Context, key string, limit int, shared bool, hold time.Duration, knownUntil bool, now time.Time) {
	if shared && limit >= 0 {
		ahead, err := c.budgets.blockShared(c.ledger, key, limit, hold, knownUntil, now, c.clock.Now)
		if err == nil {
			c.sayAhead(ctx, ahead)
			return
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api budget: the 429 could not be recorded in the shared ledger", slog.String("error", err.Error()))
	}
	c.budgets.block(key, max(limit, 0), hold, knownUntil, now)
}
