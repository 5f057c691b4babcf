package api

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
)

// TestCheckBeforeSendingStopsARequest: a failing check keeps the request from
// the service and is ErrNotSent with the check's own error inside; a check
// asked again before a retry (after a 429) stops the retry, also unsent.
func TestCheckBeforeSendingStopsARequest(t *testing.T) {
	moved := errors.New("the files moved")
	var n atomic.Int32
	h := newHarness(t, failing(http.StatusTooManyRequests, 1, `{"error":"slow down"}`, &n))
	checks := 0
	ctx := WithCheckBeforeSending(context.Background(), func() error {
		if checks++; checks > 1 {
			return moved
		}
		return nil
	})
	_, err := h.c.Upload(ctx, "p", []UploadFile{memFile("a.pdf", "x")}, DuplicateSkip)
	if !errors.Is(err, ErrNotSent) || !errors.Is(err, moved) {
		t.Errorf("the retry after the check failed: %v, want ErrNotSent and the check's error", err)
	}
	if n.Load() != 1 || checks != 2 {
		t.Errorf("%d requests reached the service after %d checks, want the first only, checked twice", n.Load(), checks)
	}
	n.Store(0)
	_, err = h.c.Upload(WithCheckBeforeSending(context.Background(), func() error { return moved }), "p", []UploadFile{memFile("a.pdf", "x")}, DuplicateSkip)
	if !errors.Is(err, ErrNotSent) || n.Load() != 0 {
		t.Errorf("a check failing at once: %v after %d requests, want ErrNotSent and none", err, n.Load())
	}
}
