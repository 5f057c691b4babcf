package matters

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// A request of a run does not carry the run's cancel (see Delete): once on
// the wire it must finish so the report can say what happened. But before
// it goes, the client may wait a minute for the shared budget or a
// Retry-After; a cancel then must not wait that minute out. waitGate ends
// the request's context only while the client is waiting.
type waitGate struct {
	mu      sync.Mutex
	until   time.Time // wall-clock end of the wait in progress
	retried bool      // a wait after an answered attempt (Retry-After, backoff)
	cut     bool      // the gate ended the request during a wait
	parent  context.Context
	cancel  context.CancelFunc
}

// sendContext returns the context of one request, its gate, and the
// function that releases them once the request has returned.
func sendContext(ctx context.Context, onWait func(api.Wait)) (context.Context, *waitGate, func()) {
	req, cancel := context.WithCancel(context.WithoutCancel(ctx))
	g := &waitGate{parent: ctx, cancel: cancel}
	req = api.WithWaitObserver(req, func(w api.Wait) {
		g.mu.Lock()
		g.until = time.Now().Add(w.For)
		g.retried = g.retried || w.Reason != api.WaitBudget
		g.mu.Unlock()
		if onWait != nil {
			onWait(w)
		}
		if ctx.Err() != nil { // canceled before (or as) the wait began
			g.cutIfWaiting()
		}
	})
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			g.cutIfWaiting()
		case <-done:
		}
	}()
	return req, g, func() { close(done); cancel() }
}

func (g *waitGate) cutIfWaiting() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if time.Now().Before(g.until) {
		g.cut = true
		g.cancel()
	}
}

// unsent reports whether err is the gate's cut during a wait before the
// first attempt: then nothing of the request reached the service.
func (g *waitGate) unsent(err error) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cut && !g.retried && (errors.Is(err, api.KindCanceled) || errors.Is(err, context.Canceled))
}
