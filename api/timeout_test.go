package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// finishes runs f and fails the test if it has not returned after limit: a
// guard against a hang, not a timing assertion (the timeouts under test are
// far shorter).
func finishes[T any](t *testing.T, limit time.Duration, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(limit):
		t.Fatalf("still waiting after %s: the client hangs", limit)
		panic("unreachable")
	}
}

// hung accepts each request and never answers until the test ends.
func hung(n *atomic.Int32, release <-chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
}

func TestFirstByteTimeoutIsRetriedThenNamed(t *testing.T) {
	var n atomic.Int32
	release := make(chan struct{})
	h := newHarness(t, hung(&n, release), func(c *Config) { c.Timeouts.FirstByte = 50 * time.Millisecond })
	t.Cleanup(func() { close(release) })
	err := finishes(t, 20*time.Second, func() error {
		_, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
		return err
	})
	var ae *Error
	if !errors.As(err, &ae) || ae.Kind != KindTimeout || !errors.Is(err, KindTimeout) {
		t.Fatalf("got %v, want a timeout", err)
	}
	if want := "no answer from GET /api/v1/vault/workspace/recycle_bin after 50ms"; !strings.Contains(err.Error(), want) {
		t.Errorf("%q lacks %q", err.Error(), want)
	}
	if ae.After != 50*time.Millisecond {
		t.Errorf("After = %s", ae.After)
	}
	if got := n.Load(); got != 1+maxTimeoutRetries {
		t.Errorf("attempts %d, want %d (a timed-out GET is retried)", got, 1+maxTimeoutRetries)
	}
}

func TestTimeoutOfNonIdempotentIsNotRepeated(t *testing.T) {
	var n atomic.Int32
	release := make(chan struct{})
	h := newHarness(t, hung(&n, release), func(c *Config) { c.Timeouts.FirstByte = 50 * time.Millisecond })
	t.Cleanup(func() { close(release) })
	err := finishes(t, 20*time.Second, func() error { _, err := h.c.DeleteProject(context.Background(), "p1"); return err })
	if kindOf(err) != KindTimeout || n.Load() != 1 {
		t.Fatalf("got %v after %d attempts, want one timed-out attempt", err, n.Load())
	}
}

// A body that stops halfway: headers and a first chunk arrive, then nothing.
func TestBodyStallTimeout(t *testing.T) {
	var n atomic.Int32
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"items":[{"id":"a"},`))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}), func(c *Config) { c.Timeouts.BodyStall = 50 * time.Millisecond })
	err := finishes(t, 20*time.Second, func() error {
		_, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
		return err
	})
	var ae *Error
	if !errors.As(err, &ae) || ae.Kind != KindTimeout {
		t.Fatalf("got %v, want a timeout", err)
	}
	if want := "GET /api/v1/vault/workspace/recycle_bin stopped sending after 21 bytes: no data for 50ms"; !strings.Contains(err.Error(), want) {
		t.Errorf("%q lacks %q", err.Error(), want)
	}
	if got := n.Load(); got != 1+maxTimeoutRetries {
		t.Errorf("attempts %d, want %d", got, 1+maxTimeoutRetries)
	}
}

// The caller's own deadline is not a timeout of the service: it is a
// cancellation and is not retried.
func TestCallerDeadlineIsCanceled(t *testing.T) {
	var n atomic.Int32
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	h := newHarness(t, hung(&n, release))
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for n.Load() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	err := finishes(t, 20*time.Second, func() error { _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(ctx)); return err })
	if kindOf(err) != KindCanceled || n.Load() != 1 {
		t.Fatalf("got %v after %d attempts", err, n.Load())
	}
}

func TestWaitObserverSeesBudgetRetryAfterAndBackoff(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 2:
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
		case 3:
			w.WriteHeader(502)
		default:
			w.Write([]byte(`{"items":[],"total":0}`))
		}
	}), func(c *Config) { c.Limits = Limits{Vault: 1} })
	var waits []Wait
	ctx := WithWaitObserver(context.Background(), func(w Wait) { waits = append(waits, w) })
	for range 2 {
		if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(ctx)); err != nil {
			t.Fatal(err)
		}
	}
	var lines []string
	for _, w := range waits {
		lines = append(lines, w.String())
	}
	got := strings.Join(lines, "\n")
	for _, want := range []string{
		"waiting 1m1s for the vault budget (1 request a minute)",
		// The 429's Retry-After (7s) is inside the wait for the one slot
		// of the window the 429'd request took: one wait, one line.
		"waiting 1m1s: the service's vault rate limit was reached (429, nothing was accepted); GET /api/v1/vault/workspace/recycle_bin is sent again then",
		"before retrying GET /api/v1/vault/workspace/recycle_bin (502)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("waits %q lack %q", got, want)
		}
	}
	if waits[0].Until.IsZero() || waits[0].Reason != WaitBudget {
		t.Errorf("first wait %+v", waits[0])
	}
}

// An upload to a server that stops reading it ends after the stall timeout
// (the write would otherwise block forever), and is not repeated.
func TestUploadToServerThatStopsReading(t *testing.T) {
	var n atomic.Int32
	release := make(chan struct{})
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		<-release // never reads the body (nor notices the client leave)
	}), func(c *Config) { c.Timeouts.BodyStall = 100 * time.Millisecond })
	t.Cleanup(func() { close(release) }) // before the server's Close, which waits for the handler
	big := strings.Repeat("x", 64<<20)   // far more than the socket buffers hold
	err := finishes(t, 20*time.Second, func() error {
		_, err := h.c.Upload(context.Background(), "p", []UploadFile{memFile("big.pdf", big)}, DuplicateKeep)
		return err
	})
	var ae *Error
	if !errors.As(err, &ae) || ae.Kind != KindTimeout || !ae.Sending || n.Load() != 1 {
		t.Fatalf("got %v after %d requests", err, n.Load())
	}
	if !strings.Contains(err.Error(), "POST /api/v1/vault/upload_files/{project_id} stopped taking the request after") {
		t.Errorf("%q", err)
	}
}
