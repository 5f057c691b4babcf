package api

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/redact"
)

// Clock is the client's time source and sleeper. Tests inject a fake that
// advances instantly, so no test ever really sleeps.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx ends, whichever is first, and returns
	// ctx.Err() in the latter case.
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the wall clock: the Clock of every client, job and
// view that is not under test.
type SystemClock struct{}

func (SystemClock) Now() time.Time { return time.Now() }

func (SystemClock) Sleep(ctx context.Context, d time.Duration) error { return Sleep(ctx, d) }

// Sleep waits d of real time or until ctx ends, whichever is first, and
// returns ctx.Err() in the latter case. A clock whose Now is pinned (a
// view's) still sleeps with it.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RetryPolicy bounds how hard the client tries after a 429 or 503.
type RetryPolicy struct {
	MaxRetries int           // default 5; negative disables retries
	MaxWait    time.Duration // total waiting across retries; default 3 minutes
}

const (
	defaultMaxRetries = 5
	defaultMaxWait    = 3 * time.Minute
	maxBackoff        = 60 * time.Second // the service's window is one minute
)

func (p RetryPolicy) normalized() RetryPolicy {
	if p.MaxRetries == 0 {
		p.MaxRetries = defaultMaxRetries
	}
	if p.MaxRetries < 0 {
		p.MaxRetries = 0
	}
	if p.MaxWait <= 0 {
		p.MaxWait = defaultMaxWait
	}
	return p
}

// newBackoff is exponential with jitter, capped at a minute: used when the
// server gives no Retry-After (production documents none).
func newBackoff() *backoff.ExponentialBackOff {
	b := &backoff.ExponentialBackOff{
		InitialInterval:     time.Second,
		RandomizationFactor: 0.5,
		Multiplier:          2,
		MaxInterval:         maxBackoff,
	}
	b.Reset()
	return b
}

// MaxRetryAfter is the longest the client waits for one answer's
// Retry-After (seconds or an HTTP date), and the longest a 429's hold stays
// in the budget ledger that every process on the machine reads. The rate
// windows are a minute, so a longer wait is no rate limit: one
// `Retry-After: 999999999` held every process on the machine for decades.
// It is two windows, so that a whole hold fits the 3 minutes of waiting in
// all that one request's retries are given (RetryPolicy.MaxWait).
const MaxRetryAfter = 2 * time.Minute

// minRetryWait is the least wait before a retry: `Retry-After: 0`, or a
// fraction of a second, answered every time, is otherwise a tight loop.
const minRetryWait = time.Second

// retryAfter reads Retry-After as delay-seconds or an HTTP date (any of the
// three forms http.ParseTime knows), bounded to [minRetryWait,
// MaxRetryAfter]. It returns false when the header is absent or is no
// usable wait: not a number of seconds (`1e30`, `NaN`, `Inf`, `-1`, `0x10`,
// garbage) or a date not after now; the caller then waits as for a 429
// without one. note, when not "", is the one line that says the header was
// not followed as given (unusable, or longer than the maximum); clamped
// says it was longer than the maximum (so not to be shared with other
// processes); raw is the header as sent, to say that only once.
func retryAfter(h http.Header, now time.Time, red redact.Redactor) (wait time.Duration, ok, clamped bool, note, raw string) {
	raw = strings.TrimSpace(h.Get("Retry-After"))
	if raw == "" {
		return 0, false, false, "", ""
	}
	var d time.Duration
	asked := ""
	if secs, isSecs := delaySeconds(raw); isSecs {
		d = secs
		asked = roughly(d)
	} else if t, err := http.ParseTime(raw); err == nil && t.After(now) {
		d = t.Sub(now) // Sub saturates: 292 years is the longest Duration
		asked = "until " + t.UTC().Format("2006-01-02 15:04:05 UTC")
	} else {
		return 0, false, false, fmt.Sprintf("the service answered with Retry-After %s, which is no usable wait (seconds, or a date after now); vaultdeck waits as if it had not been sent", quoteHeader(red.String(raw))), raw
	}
	if d > MaxRetryAfter {
		return MaxRetryAfter, true, true, fmt.Sprintf("the service asked to wait %s (Retry-After %s); vaultdeck waits at most %s (the rate windows are a minute)",
			asked, quoteHeader(red.String(raw)), MaxRetryAfter), raw
	}
	return max(d, minRetryWait), true, false, "", raw
}

// delaySeconds reads RFC 9110's delay-seconds (digits only), with a
// fraction allowed, as some servers send one. Digits of any length are a
// wait (the caller clamps it); signs, exponents, NaN and Inf are not.
func delaySeconds(v string) (time.Duration, bool) {
	whole, frac, _ := strings.Cut(v, ".")
	if whole == "" || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" {
		return 0, false
	}
	// Only digits are left, so the one error is a number past float64
	// (ErrRange): as much a wait past any Duration as 1e30 seconds is. A
	// float past int64 nanoseconds must not be converted: that overflow
	// gave a negative wait.
	secs, err := strconv.ParseFloat(whole+"."+frac+"0", 64)
	if err != nil || secs >= math.MaxInt64/float64(time.Second) {
		return math.MaxInt64, true
	}
	return time.Duration(secs * float64(time.Second)), true
}

// roughly writes a duration the way a person reads it: hours past two
// days as days, past two years as years.
func roughly(d time.Duration) string {
	switch {
	case d == math.MaxInt64:
		return "longer than any clock counts" // a Duration's own limit, 292 years
	case d >= 2*365*24*time.Hour:
		return plural.Count(d/(365*24*time.Hour), "year")
	case d >= 48*time.Hour:
		return plural.Count(d/(24*time.Hour), "day")
	}
	return roundUp(d).String()
}

// quoteHeader is a header value as it may be shown: at most 40 characters,
// Go-quoted in ASCII so no byte of it reaches a terminal as a control.
func quoteHeader(v string) string {
	if r := []rune(v); len(r) > 40 {
		v = string(r[:40]) + "…"
	}
	return strconv.QuoteToASCII(v)
}

// retryable says whether a status is worth waiting out: the rate limit,
// and a gateway or service that is briefly unavailable. A 500 is the
// service's own fault and repeating the request will not change it.
func retryable(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// resending runs one idempotent request and decode again when its body
// stalled: send retries what fails before the body, this what fails in it.
// Only for decodes that hand nothing to the caller before they finish.
func (c *Client) resending(ctx context.Context, ep endpoint, once func() error) error {
	bo := newBackoff()
	for n := 0; ; n++ {
		err := once()
		var te *Error
		if err == nil || !ep.idempotent || n >= maxTimeoutRetries || !errors.As(err, &te) || te.Kind != KindTimeout || te.Received < 0 || te.Total {
			return err
		}
		wait := min(bo.NextBackOff(), maxBackoff)
		c.observeWait(ctx, Wait{Endpoint: ep.String(), Reason: WaitBackoff, For: wait})
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return canceled(ep, err)
		}
	}
}

// resendingUntilHanded is resending for a listing that hands entries to
// its caller as they arrive: a stalled body is read again only while no
// entry has been handed out (once calls handed before each), since a
// second read would hand the first ones twice.
func (c *Client) resendingUntilHanded(ctx context.Context, ep endpoint, once func(handed func()) error) error {
	given := false
	err := c.resending(ctx, ep, func() error {
		err := once(func() { given = true })
		if err != nil && given {
			return final{err}
		}
		return err
	})
	if f, ok := err.(final); ok {
		err = f.err
	}
	return err
}

// final stops resending.
type final struct{ err error }

func (f final) Error() string { return f.err.Error() }
