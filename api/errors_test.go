package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestStatusErrors(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		call   func(*Client) error
		kind   ErrorKind
		want   []string
	}{
		{"401", 401, `{"error":"Unauthorized"}`, func(c *Client) error { _, err := c.WhoAmI(context.Background()); return err },
			KindUnauthorized, []string{"invalid, expired or revoked", "API Tokens"}},
		{"403", 403, `{"error":"nope"}`, func(c *Client) error {
			_, err := binOf(c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
			return err
		},
			KindForbidden, []string{"this token lacks View workspace projects"}},
		{"403 audit", 403, `{"error":"nope"}`, func(c *Client) error { _, err := c.AuditEarliest(context.Background(), ""); return err },
			KindForbidden, []string{"lacks Territory admin or Organization admin"}},
		{"matters 401", 401, `{"error":"Unauthorized"}`, func(c *Client) error {
			_, err := c.DeleteMatters(context.Background(), []MatterPair{{"a", "b"}})
			return err
		},
			KindUnauthorized, []string{"invalid or expired", "Client matters admin (write:client_matters)"}},
		{"404", 404, `{"error":"Project not found"}`, func(c *Client) error {
			_, err := usersOf(c.ProjectUsers("x").Collect(context.Background()))
			return err
		},
			KindNotFound, []string{"Project not found"}},
		{"500", 500, `{"error":"Unexpected server error"}`, func(c *Client) error { _, err := c.WhoAmI(context.Background()); return err },
			KindServer, []string{"(500)", "try again later"}},
		{"502 html", 502, `<html>bad gateway</html>`, func(c *Client) error { _, err := c.WhoAmI(context.Background()); return err },
			KindServer, []string{"bad gateway"}},
		{"413", 413, `{"error":"File \"a\" is larger than the 500 MB limit"}`, func(c *Client) error {
			_, err := c.Upload(context.Background(), "p", []UploadFile{memFile("a", "x")}, DuplicateKeep)
			return err
		}, KindTooLarge, []string{"500 MB"}},
		{"400 batch", 400, `{"error":"invalid_request","detail":"bad","validation_errors":[{"loc":["body","matters",0,"client_id"],"type":"missing"}]}`,
			func(c *Client) error {
				_, err := c.DeleteMatters(context.Background(), []MatterPair{{"a", "b"}})
				return err
			},
			KindInvalidRequest, []string{"invalid_request", "missing at body.matters.[0].client_id", "Nothing was changed"}},
		{"malformed", 200, `{"response":{"content":[{"file_id":`, func(c *Client) error {
			_, err := detailsOf(c.GetFiles(context.Background(), []string{"a"}))
			return err
		},
			KindMalformed, []string{"GET /api/v1/vault/get_files", "HTTP 200", "truncated JSON", `body starts with`}},
		{"invalid json", 200, `{"items": [nonsense]}`, func(c *Client) error {
			_, err := binOf(c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
			return err
		},
			KindMalformed, []string{"invalid JSON at byte", "nonsense"}},
		{"no envelope", 200, `{"projects":[]}`, func(c *Client) error { _, err := c.ProjectsPage(context.Background(), ProjectQuery{}); return err },
			KindMalformed, []string{`"response"."content"`}},
		{"wrong shape", 200, `{"log":"yesterday"}`, func(c *Client) error { _, err := c.AuditEarliest(context.Background(), ""); return err },
			KindMalformed, []string{"log item 1"}},
		{"empty", 200, ``, func(c *Client) error { _, err := c.AuditPage(context.Background(), "x", 1, ""); return err },
			KindMalformed, []string{"empty body"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, jsonHandler(tc.status, tc.body))
			err := tc.call(h.c)
			var ae *Error
			if !errors.As(err, &ae) || ae.Kind != tc.kind || !errors.Is(err, tc.kind) {
				t.Fatalf("got %v (%T), want kind %v", err, err, tc.kind)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err.Error(), w)
				}
			}
		})
	}
}

func TestMatter401AfterSuccessNamesPermission(t *testing.T) {
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/whoami" {
			io.WriteString(w, `{}`)
			return
		}
		w.WriteHeader(401)
		io.WriteString(w, `{"error":"Unauthorized"}`)
	}))
	if _, err := h.c.WhoAmI(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := h.c.DeleteMatters(context.Background(), []MatterPair{{"a", "b"}})
	if err == nil || !strings.Contains(err.Error(), "most likely lacks Client matters admin") {
		t.Fatalf("got %v", err)
	}
}

// rateLimited answers 429 (or 503) n times, then 200.
func rateLimited(status, n int, retryAfter string, count *atomic.Int32) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if int(count.Add(1)) <= n {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(status)
			io.WriteString(w, `{"error":"Rate limit exceeded: vault allows 10 requests per minute"}`)
			return
		}
		io.WriteString(w, `{"items":[],"total":0}`)
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, rateLimited(429, 2, "7", &n))
	if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 3 {
		t.Errorf("requests %d", n.Load())
	}
	var total time.Duration
	for _, d := range h.clock.slept() {
		total += d
	}
	if total != 14*time.Second {
		t.Errorf("slept %v (%v), want 14s", total, h.clock.slept())
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	var n atomic.Int32
	clock := newFakeClock()
	date := clock.Now().Add(20 * time.Second).UTC().Format(http.TimeFormat)
	h := newHarness(t, rateLimited(429, 1, date, &n), func(c *Config) { c.Clock = clock })
	h.clock = clock
	if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); err != nil {
		t.Fatal(err)
	}
	if s := clock.slept(); len(s) == 0 || s[0] != 20*time.Second {
		t.Errorf("slept %v", s)
	}
}

func TestRetryBackoffWithoutRetryAfter(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, rateLimited(503, 3, "", &n))
	if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); err != nil {
		t.Fatal(err)
	}
	s := h.clock.slept()
	if len(s) != 3 {
		t.Fatalf("sleeps %v", s)
	}
	for _, d := range s {
		if d <= 0 || d > maxBackoff {
			t.Errorf("backoff %v out of range", d)
		}
	}
}

func TestRetriesAreBounded(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, rateLimited(429, 1000, "", &n))
	_, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
	var ae *Error
	if !errors.As(err, &ae) || ae.Kind != KindRateLimited || ae.RetryAfter <= 0 {
		t.Fatalf("got %v", err)
	}
	// Each retry after a 429 without Retry-After waits for the window the
	// 429 proved full, so the 3 minutes of waiting in all end the call
	// before the fifth retry.
	var waited time.Duration
	for _, d := range h.clock.slept() {
		waited += d
	}
	if n.Load() > 1+defaultMaxRetries || waited > defaultMaxWait {
		t.Errorf("%d requests over %v of waiting", n.Load(), waited)
	}
	if !strings.Contains(err.Error(), "Try again in") {
		t.Errorf("message %q", err)
	}
	// A Retry-After past the maximum is waited as the maximum, and said
	// once (one line, though two answers carried it); the next such wait
	// would pass the total, so the call ends there.
	n.Store(0)
	h2 := newHarness(t, rateLimited(429, 1000, "3600", &n))
	_, err = h2.c.WhoAmI(context.Background())
	if kindOf(err) != KindRateLimited || n.Load() != 2 || !strings.Contains(err.Error(), "Try again in 2m0s") {
		t.Fatalf("got %v after %d", err, n.Load())
	}
	if said := strings.Count(h2.logs.String(), "the service asked to wait 1h0m0s"); said != 1 {
		t.Errorf("the clamped Retry-After was said %d times:\n%s", said, h2.logs.String())
	}
}

// Issue 17 case 7: a 429 means the service accepted nothing, so an upload,
// a matter upsert and a project deletion are sent again after Retry-After,
// inside the budget, with a wait the command can print; only when the
// retries are spent does the caller get the 429, still "rate limited".
func TestRateLimitedWritesAreResent(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, rateLimited(429, 1, "30", &n))
	var waits []Wait
	ctx := WithWaitObserver(context.Background(), func(w Wait) { waits = append(waits, w) })
	if _, err := h.c.Upload(ctx, "p", []UploadFile{memFile("a.pdf", "x")}, DuplicateSkip); err != nil {
		t.Fatalf("upload: %v", err)
	}
	if n.Load() != 2 {
		t.Errorf("upload: %d requests, want the 429 and one re-send", n.Load())
	}
	if len(waits) == 0 || waits[0].Status != 429 || !strings.Contains(waits[0].String(), "nothing was accepted") ||
		!strings.Contains(waits[0].String(), "POST /api/v1/vault/upload_files/{project_id} is sent again") {
		t.Errorf("waits %v", waits)
	}
	for name, call := range map[string]func() error{
		"delete project": func() error { _, err := h.c.DeleteProject(ctx, "p"); return err },
		"upsert matters": func() error { _, err := h.c.UpsertMatters(ctx, []MatterPair{{"a", "b"}}); return err },
	} {
		n.Store(0)
		if err := call(); err != nil || n.Load() != 2 {
			t.Errorf("%s: %v after %d requests, want success after 2", name, err, n.Load())
		}
	}
	// Always limited: the retries end, and the error still says 429.
	n.Store(0)
	h2 := newHarness(t, rateLimited(429, 1000, "30", &n))
	_, err := h2.c.Upload(context.Background(), "p", []UploadFile{memFile("a.pdf", "x")}, DuplicateSkip)
	if kindOf(err) != KindRateLimited || !strings.Contains(err.Error(), "Try again in 30s") || n.Load() != 1+defaultMaxRetries {
		t.Fatalf("upload always limited: %v after %d", err, n.Load())
	}
}

func TestDeleteMattersIsRetried(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		b, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(b), `"matters":[{"client_id":"a","matter_id":"b"}]`) {
			w.WriteHeader(400)
			return
		}
		io.WriteString(w, `{"deleted":[{"client_id":"a","matter_id":"b"}],"already_absent":[],"errors":[]}`)
	}))
	r, err := h.c.DeleteMatters(context.Background(), []MatterPair{{"a", "b"}})
	if err != nil || len(r.Deleted) != 1 || n.Load() != 2 {
		t.Fatalf("%+v %v %d", r, err, n.Load())
	}
}

func TestCancelDuringSlowResponse(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := h.c.WhoAmI(ctx)
	if kindOf(err) != KindCanceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

func TestCancelDuringSlowBody(t *testing.T) {
	sent := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"items":[`)
		w.(http.Flusher).Flush()
		close(sent)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-sent; cancel() }()
	_, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(ctx))
	if kindOf(err) != KindCanceled {
		t.Fatalf("got %v", err)
	}
}

// TestCancelDuringBackoffAndBudgetWait cancels only once the fake clock's
// sleep has begun, so it proves the client was waiting (on the backoff, then
// on the budget) and that cancelling ends the wait. A call that returns
// before any sleep fails the test.
func TestCancelDuringBackoffAndBudgetWait(t *testing.T) {
	cancelWhileSleeping := func(t *testing.T, h *harness, what string, want time.Duration) {
		t.Helper()
		h.clock.block = true
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() { _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(ctx)); done <- err }()
		select {
		case d := <-h.clock.entered:
			if want > 0 && d != want {
				t.Errorf("%s: slept %v, want %v", what, d, want)
			}
		case err := <-done:
			t.Fatalf("%s: returned %v without waiting", what, err)
		}
		cancel()
		if err := <-done; kindOf(err) != KindCanceled {
			t.Fatalf("%s: %v", what, err)
		}
	}
	var n atomic.Int32
	cancelWhileSleeping(t, newHarness(t, rateLimited(429, 1000, "5", &n)), "backoff", 5*time.Second)
	// Budget wait: a limit of 1 per minute, so the second call waits for budget.
	h2 := newHarness(t, jsonHandler(200, `{"items":[],"total":0}`), func(c *Config) { c.Limits = Limits{Vault: 1} })
	if _, err := binOf(h2.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); err != nil {
		t.Fatal(err)
	}
	cancelWhileSleeping(t, h2, "budget wait", budgetWindow)
}

func TestNetworkError(t *testing.T) {
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", Token: StaticToken(secretToken), Clock: newFakeClock()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.WhoAmI(context.Background())
	if kindOf(err) != KindNetwork || !strings.Contains(err.Error(), "Check the network") {
		t.Fatalf("got %v", err)
	}
}

// A 429 without Retry-After (production documents none) still proves the
// window is full, with other integrations' requests this client never saw:
// the next attempt waits for the window, not only for a one-second backoff
// that would meet the limit again.
func TestRateLimitWithoutRetryAfterWaitsForTheWindow(t *testing.T) {
	var n atomic.Int32
	h := newHarness(t, rateLimited(429, 1, "", &n))
	if _, err := binOf(h.c.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); err != nil {
		t.Fatal(err)
	}
	var total time.Duration
	for _, d := range h.clock.slept() {
		total += d
	}
	if n.Load() != 2 || total < time.Minute {
		t.Errorf("%d requests after %v (%v) of waiting, want the second after the window", n.Load(), total, h.clock.slept())
	}
}
