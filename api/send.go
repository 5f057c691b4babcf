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
func (c *Client) send(ctx context.Context, cl call) (*http.Response, redactor, error) {
	if err := ctx.Err(); err != nil {
		return nil, redactor{}, canceled(cl.ep, err)
	}
	tok, err := c.token(ctx, cl.ep)
	if err != nil {
		return nil, redactor{}, err
	}
	red := c.currentRedactor()
	key := budgetKeyHashed(c.base, tokenHash(tok), cl.ep.cat)
	limit := c.limits.of(cl.ep.cat)
	bo := newBackoff()
	var waited time.Duration
	timeouts := 0
	for attempt := 0; ; attempt++ {
		if err := c.waitBudget(ctx, cl.ep, key, limit); err != nil {
			return nil, red, err
		}
		resp, err := c.attempt(ctx, cl, tok, red, key, limit, attempt)
		if err != nil {
			var te *Error
			if !errors.As(err, &te) || te.Kind != KindTimeout || !cl.ep.idempotent || timeouts >= maxTimeoutRetries {
				return nil, red, err
			}
			timeouts++
			wait := min(bo.NextBackOff(), maxBackoff)
			c.observeWait(ctx, Wait{Endpoint: cl.ep.String(), Reason: WaitBackoff, For: wait})
			c.log.LogAttrs(ctx, slog.LevelDebug, "api retry after timeout",
				slog.String("method", cl.ep.method), slog.String("path", red.String(cl.path)),
				slog.Duration("wait", wait), slog.Int("attempt", attempt+1))
			if err := c.clock.Sleep(ctx, wait); err != nil {
				return nil, red, canceled(cl.ep, err)
			}
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
		apiErr := c.statusError(cl.ep, resp.StatusCode, body, red)
		if !retryable(resp.StatusCode) {
			c.refineForbidden(ctx, cl.ep, apiErr)
			return nil, red, apiErr
		}
		now := c.clock.Now()
		wait, ok := retryAfter(resp.Header, now)
		reason := WaitRetryAfter
		if !ok {
			wait = min(bo.NextBackOff(), maxBackoff)
			reason = WaitBackoff
		}
		apiErr.RetryAfter = wait
		if resp.StatusCode == http.StatusTooManyRequests {
			c.budgets.block(key, now.Add(wait)) // everyone sharing the bucket holds off
		}
		if !cl.ep.idempotent || attempt >= c.retry.MaxRetries || waited+wait > c.retry.MaxWait {
			return nil, red, apiErr
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api retry",
			slog.String("method", cl.ep.method), slog.String("path", red.String(cl.path)),
			slog.Int("status", resp.StatusCode), slog.Duration("wait", wait), slog.Int("attempt", attempt+1))
		c.observeWait(ctx, Wait{Endpoint: cl.ep.String(), Reason: reason, Status: resp.StatusCode, For: wait})
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return nil, red, canceled(cl.ep, err)
		}
		waited += wait
	}
}

// waitBudget blocks until the category's budget allows one more request.
func (c *Client) waitBudget(ctx context.Context, ep endpoint, key string, limit int) error {
	for {
		d, ok := c.budgets.reserve(key, limit, c.clock.Now())
		if ok {
			return nil
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api budget wait",
			slog.String("category", string(ep.cat)), slog.Duration("wait", d))
		c.observeWait(ctx, Wait{Endpoint: ep.String(), Reason: WaitBudget, Category: ep.cat, Limit: limit, For: d})
		if err := c.clock.Sleep(ctx, d); err != nil {
			return canceled(ep, err)
		}
	}
}
