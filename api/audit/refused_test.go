package audit_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
)

// TestFollowGivesUpOnARefusedToken: a token refused (401, or 403 on the
// audit permission) with no request accepted for longer than AuthGrace
// ends the follow with ErrTokenRefused, at the bound and not a backoff
// later, so systemd's Restart=/OnFailure= can act; trouble of any other
// kind (503) is still ridden out however long it lasts, and a refusal
// that clears before the bound is forgotten.
func TestFollowGivesUpOnARefusedToken(t *testing.T) {
	const grace = 3 * time.Minute
	for _, code := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		clock := newVirtualClock()
		_, c, status := troubleRig(t, clock)
		var since time.Time
		var out bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		err := (&audit.Job{Svc: c, Clock: clock}).Follow(ctx, audit.FollowOptions{
			Sink: &audit.WriterSink{W: bufio.NewWriter(&out)}, AuthGrace: grace,
			Event: func(ev audit.FollowEvent) {
				if ev.Err == nil && ev.CaughtUp && since.IsZero() {
					since = clock.Now()
					status.Store(int64(code))
				}
				if !since.IsZero() && clock.Now().Sub(since) > 10*grace {
					cancel() // a follower that never gives up: stopped here, failed below
				}
			},
		})
		var refused *audit.RefusedError
		if !errors.Is(err, audit.ErrTokenRefused) || !errors.As(err, &refused) {
			t.Fatalf("%d for ever: follow returned %v, want ErrTokenRefused", code, err)
		}
		if took := clock.Now().Sub(since); took < grace || took > grace+2*time.Second {
			t.Errorf("%d: gave up %s after the first refusal, want at the bound (%s)", code, took, grace)
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "3m0s") || !strings.Contains(msg, fmt.Sprintf("(%d)", code)) {
			t.Errorf("%d: the line does not say the status and for how long: %s", code, msg)
		}
		t.Log(err)
		if !errors.Is(err, api.KindUnauthorized) && !errors.Is(err, api.KindForbidden) {
			t.Errorf("%d: the refusal's own error is not kept: %v", code, err)
		}
	}

	// 503 for longer than the bound: still retried
	clock := newVirtualClock()
	_, c, status := troubleRig(t, clock)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var since time.Time
	var out bytes.Buffer
	err := (&audit.Job{Svc: c, Clock: clock}).Follow(ctx, audit.FollowOptions{
		Sink: &audit.WriterSink{W: bufio.NewWriter(&out)}, AuthGrace: grace,
		Event: func(ev audit.FollowEvent) {
			if ev.Err == nil && ev.CaughtUp && since.IsZero() {
				since = clock.Now()
				status.Store(http.StatusServiceUnavailable)
			}
			if !since.IsZero() && clock.Now().Sub(since) > 4*grace {
				cancel()
			}
		},
	})
	if err != nil {
		t.Fatalf("a 503 for %s: follow stopped: %v", clock.Now().Sub(since), err)
	}

	// refused, accepted again before the bound, refused again: the bound
	// counts from the second refusal
	clock = newVirtualClock()
	_, c, status = troubleRig(t, clock)
	var flips int
	var second time.Time
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	err = (&audit.Job{Svc: c, Clock: clock}).Follow(ctx, audit.FollowOptions{
		Sink: &audit.WriterSink{W: bufio.NewWriter(&out)}, AuthGrace: grace,
		Event: func(ev audit.FollowEvent) {
			switch {
			case ev.Err == nil && ev.CaughtUp && flips == 0:
				flips++
				status.Store(http.StatusUnauthorized)
			case ev.Err != nil && flips == 1 && clock.Now().Sub(since) > grace/2:
				flips++
				status.Store(0)
			case ev.Err == nil && flips == 2:
				flips++
				second = clock.Now()
				status.Store(http.StatusUnauthorized)
			}
			if flips == 1 && since.IsZero() {
				since = clock.Now()
			}
			if !second.IsZero() && clock.Now().Sub(second) > 10*grace {
				cancel()
			}
		},
	})
	if !errors.Is(err, audit.ErrTokenRefused) || clock.Now().Sub(second) < grace {
		t.Fatalf("refused again after a success: %v after %s, want ErrTokenRefused a whole bound after the second refusal", err, clock.Now().Sub(second))
	}
}
