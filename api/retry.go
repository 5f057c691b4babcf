package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v5"
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

// retryAfter reads Retry-After as delay-seconds or an HTTP date. It returns
// false when the header is absent or unreadable.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
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
