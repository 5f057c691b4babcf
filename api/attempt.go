// This file is one attempt on the wire: it builds the request, arms the
// first-byte and body-stall timers, and turns transport failures into the
// package's redacted errors.

package api

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// attempt sends one HTTP request and logs it.
func (c *Client) attempt(ctx context.Context, cl call, tok string, red redact.Redactor, key string, limit, n int) (*http.Response, error) {
	u := c.base + cl.path
	if len(cl.query) > 0 {
		u += "?" + cl.query.Encode()
	}
	var body io.ReadCloser
	var ctype string
	var finish func() error
	if cl.body != nil {
		var err error
		if body, ctype, finish, err = cl.body(); err != nil {
			return nil, err
		}
	}
	// The attempt's own context carries its timers: the first-byte timer
	// starts once the request (body included: an upload takes as long as it
	// takes) has been written; the body timer is re-armed by every read.
	actx, cancel := context.WithCancelCause(ctx)
	wd := &watchdog{cancel: cancel, clk: c.timers}
	gate := &progressGate{}
	actx = context.WithValue(actx, progressKey{}, gate) // the body's reader finds it (walkBody)
	actx = withAnswerEnd(actx, ctx)                     // what follows the answer on its connection (wire.go)
	var sw *sendWatch
	// The whole-response timer starts with the first-byte timer and runs
	// until the body is closed.
	if cl.body == nil {
		wd.arm(c.timeouts.FirstByte, false)
		wd.startTotal(c.timeouts.Total)
	} else {
		// While the body goes out, the stall timer is re-armed by every
		// read the transport makes of it.
		actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
			WroteRequest: func(httptrace.WroteRequestInfo) {
				wd.arm(c.timeouts.FirstByte, false)
				wd.startTotal(c.timeouts.Total)
			},
		})
	}
	req, err := http.NewRequestWithContext(actx, cl.ep.method, u, body)
	if err != nil {
		wd.stop()
		wd.stopTotal()
		cancel(nil)
		if finish != nil {
			_ = finish()
		}
		return nil, &Error{Kind: KindInvalidRequest, Endpoint: cl.ep.String(), Message: red.SafeText(err.Error(), 300)}
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if cl.length > 0 && body != nil {
		req.ContentLength = cl.length
	}
	if cl.body != nil && req.Body != nil && req.Body != http.NoBody {
		// Wrapped after NewRequest, which has taken the length (and a
		// GetBody for redirects) from the body's own type.
		sw = &sendWatch{rc: req.Body, wd: wd, stall: c.timeouts.BodyStall}
		req.Body = sw
	}
	start := c.clock.Now()
	resp, err := c.hc.Do(req)
	wd.stop()
	var bodyErr error
	if finish != nil {
		bodyErr = finish()
	}
	attrs := []slog.Attr{
		slog.String("method", cl.ep.method), slog.String("path", red.String(cl.path)),
		slog.Duration("duration", c.clock.Now().Sub(start)), slog.String("category", string(cl.ep.cat)),
		slog.Int("attempt", n),
	}
	if st := c.budgets.status(key, limit, c.clock.Now()); !st.Unlimited {
		attrs = append(attrs, slog.Int("budget_remaining", st.Remaining))
	}
	if err != nil {
		wd.stopTotal()
		if resp != nil {
			resp.Body.Close()
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api request failed", attrs...)
		sent := int64(-1)
		if sw != nil {
			sent = sw.n.Load()
		}
		timedOut := timeoutOf(actx, sent)
		cancel(nil)
		if bodyErr != nil {
			return nil, bodyErr
		}
		if te := asTimeout(cl.ep, timedOut); te != nil && ctx.Err() == nil {
			return nil, te
		}
		if rr := (*redirectRefused)(nil); errors.As(err, &rr) {
			e := &Error{Kind: KindRedirect, Endpoint: cl.ep.String(), Message: red.SafeText(rr.Error(), 400)}
			if resp != nil {
				e.Status = resp.StatusCode
			}
			return nil, e
		}
		if ctx.Err() != nil {
			return nil, canceled(cl.ep, ctx.Err())
		}
		if pe := protocolError(cl.ep, 0, red, err); pe != nil {
			return nil, pe
		}
		return nil, &Error{Kind: KindNetwork, Endpoint: cl.ep.String(),
			Message: red.SafeText(err.Error(), 400), Err: redactedCause{red.String(err.Error()), err}}
	}
	c.log.LogAttrs(ctx, slog.LevelDebug, "api request", append(attrs, slog.Int("status", resp.StatusCode))...)
	// the body's silence is timed by its reads (watchedBody), from the first
	resp.Body = newWatchedBody(resp.Body, wd, c.timeouts.BodyStall, actx, gate)
	// The token is taken out of the body here, once, before any caller
	// (a view, the cache, a log, serve's store) sees a byte of it.
	resp.Body = redact.Body(resp.Body, red)
	return resp, nil
}

// redactedCause keeps errors.Is/As on a transport error while its text is
// the redacted one.
type redactedCause struct {
	text  string
	cause error
}

func (r redactedCause) Error() string { return r.text }
func (r redactedCause) Unwrap() error { return r.cause }
