package api

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
	"unsafe"
)

const secretToken = "tok-SECRET-123"

// fakeClock advances instantly on Sleep; with block set, Sleep waits for
// the context instead (to test cancellation during waits) and reports on
// entered that a sleep has begun, so a test cancels only once the client is
// really waiting.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	sleeps  []time.Duration
	block   bool
	entered chan time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), entered: make(chan time.Duration, 16)}
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if f.block {
		select {
		case f.entered <- d:
		default:
		}
		<-ctx.Done()
		return ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.sleeps = append(f.sleeps, d)
	f.mu.Unlock()
	return nil
}

func (f *fakeClock) slept() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type harness struct {
	srv   *httptest.Server
	c     *Client
	clock *fakeClock
	logs  *syncBuffer
}

func newHarness(t *testing.T, h http.Handler, mod ...func(*Config)) *harness {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	hs := &harness{srv: srv, clock: newFakeClock(), logs: &syncBuffer{}}
	cfg := Config{
		BaseURL: srv.URL,
		Token:   StaticToken(secretToken),
		Clock:   hs.clock,
		Logger:  slog.New(slog.NewTextHandler(hs.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs.c = c
	return hs
}

func jsonHandler(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
}

func kindOf(err error) ErrorKind {
	if e, ok := err.(*Error); ok {
		return e.Kind
	}
	var ae *Error
	if asError(err, &ae) {
		return ae.Kind
	}
	return KindUnknown
}

func asError(err error, target **Error) bool {
	for err != nil {
		if e, ok := err.(*Error); ok {
			*target = e
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// binOf is a collected recycle bin as one answer, for the tests written
// against the answer (Items, Total).
func binOf(items []RecycleBinEntry, s Summary, err error) (*RecycleBin, error) {
	if err != nil {
		return nil, err
	}
	return &RecycleBin{Items: items, Total: s.Total, hasTotal: s.HasTotal}, nil
}

// itemsOf reads a listing whole through Each, each record beside a copy
// of its own bytes, for the tests written against the old page variants.
func itemsOf[T any](ctx context.Context, l Listing[T]) ([]Item[T], error) {
	var all []Item[T]
	_, err := l.Each(ctx, func(v *T, it RawItem) error {
		all = append(all, Item[T]{Value: *v, JSON: bytes.Clone(it.Bytes)})
		return nil
	}, nil)
	return all, err
}

// oneAnswer says whether a and b hold the one answer (the Share's), not
// two equal copies.
func oneAnswer(a, b *RecycleBin) bool {
	return a != nil && b != nil && len(a.Items) == len(b.Items) && unsafe.SliceData(a.Items) == unsafe.SliceData(b.Items)
}

// usersOf is a collected users listing as the body it came in, for the
// tests written against it (Data.Users).
func usersOf(users []ProjectUser, _ Summary, err error) (*ProjectUsers, error) {
	if err != nil {
		return nil, err
	}
	var u ProjectUsers
	u.Data.Users = users
	return &u, nil
}

// detailsOf is get_files' records without their JSON, for the tests that
// read the records alone.
func detailsOf(items []Item[FileDetail], err error) ([]FileDetail, error) { return Values(items), err }
