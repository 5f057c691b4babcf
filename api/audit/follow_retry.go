package audit

// The follow's handling of trouble: transient errors retried with backoff and
// said once, a token refused for longer than AuthGrace ended as
// ErrTokenRefused, waits that end with the context, and SIGHUP's reopen.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cenkalti/backoff/v5"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// retrying runs call until it succeeds, ctx ends, or it fails for good.
// Transient trouble is said once when it starts (and when it changes),
// and its end is said too.
func (f *follower) retrying(ctx context.Context, call func() error) error {
	for {
		err := call()
		if err == nil {
			f.refusedSince = time.Time{}
			f.succeeded()
			if f.failing != "" {
				f.say("the service answers again; following")
				f.failing = ""
			}
			f.bo.Reset()
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if permanent(err) {
			return err
		}
		wait := f.bo.NextBackOff()
		if refusal(err) {
			now := f.j.clock().Now()
			if f.refusedSince.IsZero() {
				f.refusedSince = now
			}
			left := f.refusedSince.Add(f.o.AuthGrace).Sub(now)
			if left <= 0 {
				return &RefusedError{For: now.Sub(f.refusedSince), Err: err}
			}
			// one more try at the bound, not a backoff past it: a unit's
			// Restart= acts when the bound says, not up to 5 minutes later
			wait = min(wait, left)
		}
		if msg := err.Error(); msg != f.failing {
			f.failing = msg
			// the api error already says what to do (a 401: log in again)
			f.say("%s; trying again in %s, and until it works (nothing is lost meanwhile)", msg, wait.Round(time.Second))
		}
		f.failed(ctx, err)
		f.event(FollowEvent{Err: err, Wait: wait, Progress: f.prog.p})
		if err := f.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// permanent says no retry can cure err: the service refused the request
// itself (400: a cursor it does not accept), a redirect elsewhere, or a
// listing that does not continue after its cursor (asking again would
// read the same answer, and taking it would deliver entries twice), or the
// database's files changed under the process (its checkpoints would be
// lost: a restart would deliver again what was delivered since).
func permanent(err error) bool {
	return errors.Is(err, api.KindInvalidRequest) || errors.Is(err, api.KindRedirect) || errors.Is(err, api.KindTooLarge) ||
		errors.Is(err, api.ErrAuditOrder) || errors.Is(err, store.ErrChanged)
}

func retryBackoff() *backoff.ExponentialBackOff {
	b := &backoff.ExponentialBackOff{InitialInterval: time.Second, RandomizationFactor: 0.3,
		Multiplier: 2, MaxInterval: maxRetryWait}
	b.Reset()
	return b
}

// sleep waits d, or less when a SIGHUP arrives (the reopen happens at
// once), or until ctx ends (its error).
func (f *follower) sleep(ctx context.Context, d time.Duration) error {
	if f.o.Reopen == nil {
		return f.j.clock().Sleep(ctx, d)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f.j.clock().Sleep(sctx, d) }()
	select {
	case err := <-done:
		return err
	case <-f.o.Reopen:
		cancel()
		<-done
		if err := f.o.Sink.Reopen(ctx); err != nil {
			return err
		}
		f.say("reopened the output (SIGHUP)")
		return nil
	}
}

// reopenIfAsked reopens the sink when a SIGHUP arrived while reading.
func (f *follower) reopenIfAsked(ctx context.Context) error {
	select {
	case <-f.o.Reopen:
		if err := f.o.Sink.Reopen(ctx); err != nil {
			return err
		}
		f.say("reopened the output (SIGHUP)")
	default:
	}
	return nil
}

// refusal says the token itself was refused: a 401, or a 403 (on the
// follow's requests, the audit permission it lacks).
func refusal(err error) bool {
	return errors.Is(err, api.KindUnauthorized) || errors.Is(err, api.KindForbidden)
}

// ErrTokenRefused: the token was refused for longer than AuthGrace.
var ErrTokenRefused = errors.New("the token is refused")

// RefusedError is ErrTokenRefused with how long and the last refusal.
type RefusedError struct {
	For time.Duration
	Err error // the service's last refusal (api.KindUnauthorized or KindForbidden)
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the token has been refused for %s, longer than --auth-grace allows: %v", e.For.Round(time.Second), e.Err)
}
func (e *RefusedError) Unwrap() []error { return []error{ErrTokenRefused, e.Err} }
