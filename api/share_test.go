package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gatedBin answers the recycle bin only once released, counting requests,
// so a test can hold a request in flight while others arrive.
type gatedBin struct {
	hits    atomic.Int32
	release chan struct{}
}

func (g *gatedBin) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.hits.Add(1)
	<-g.release
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"items":[{"id":"a","vault_project":{"name":"One"}},{"id":"b"}],"total":2}`))
}

func (s *Share) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, f := range s.flights {
		n += f.waiters
	}
	return n
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond) // polling a condition, not timing the test
	}
}

// Five clients on one token (five SSH sessions) asking for the recycle bin
// while the first request is still in flight: one request reaches the
// server, every caller gets that one answer (read only: a copy each was
// 23 MB a session for 100,000 entries), and a different token is never
// given the first token's data.
func TestShareMakesIdenticalGETsOnce(t *testing.T) {
	g := &gatedBin{release: make(chan struct{})}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	share, budgets := NewShare(0), NewBudgets()
	client := func(tok string) *SharedClient {
		c, err := New(Config{BaseURL: srv.URL, Token: StaticToken(tok), Budgets: budgets})
		if err != nil {
			t.Fatal(err)
		}
		return share.Client(c)
	}
	var wg sync.WaitGroup
	results := make([]*RecycleBin, 5)
	errs := make([]error, 5)
	clients := make([]*SharedClient, 5)
	for i := range 5 {
		c := client(secretToken)
		clients[i] = c
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = binOf(c.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
		}()
	}
	waitFor(t, "five callers on one flight", func() bool { return share.waiting() == 5 })
	other := client("another-token")
	var otherErr error
	var otherResult *RecycleBin
	wg.Add(1)
	go func() {
		defer wg.Done()
		otherResult, otherErr = binOf(other.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
	}()
	waitFor(t, "the second token's request", func() bool { return g.hits.Load() == 2 })
	close(g.release)
	wg.Wait()

	if n := g.hits.Load(); n != 2 {
		t.Fatalf("server saw %d requests, want 2 (one per token)", n)
	}
	for i := range 5 {
		if errs[i] != nil || results[i] == nil || len(results[i].Items) != 2 {
			t.Fatalf("caller %d: %v %+v", i, errs[i], results[i])
		}
	}
	if otherErr != nil {
		t.Fatal(otherErr)
	}
	for i := range 5 {
		if !oneAnswer(results[i], results[0]) {
			t.Errorf("caller %d got a copy of the answer, not the one answer", i)
		}
	}
	if oneAnswer(otherResult, results[0]) {
		t.Error("another token was given the first token's answer")
	}
	if st := clients[4].Budget(CategoryVault); st.Remaining != DefaultVaultLimit-1 {
		t.Errorf("shared budget left %d, want %d", st.Remaining, DefaultVaultLimit-1)
	}
	if share.waiting() != 0 {
		t.Errorf("flights left behind: %d", share.waiting())
	}
}

// A caller that leaves (its session closed) does not cancel the request
// for the others still waiting on it.
func TestShareCallerLeavingKeepsFlightForOthers(t *testing.T) {
	g := &gatedBin{release: make(chan struct{})}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	share := NewShare(0)
	c, err := New(Config{BaseURL: srv.URL, Token: StaticToken(secretToken)})
	if err != nil {
		t.Fatal(err)
	}
	sc := share.Client(c)
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { _, err := binOf(sc.RecycleBin(RecycleBinQuery{}).Collect(ctx)); first <- err }()
	waitFor(t, "the first request", func() bool { return g.hits.Load() == 1 })
	second := make(chan error, 1)
	go func() { _, err := binOf(sc.RecycleBin(RecycleBinQuery{}).Collect(context.Background())); second <- err }()
	waitFor(t, "two callers", func() bool { return share.waiting() == 2 })
	cancel()
	if err := <-first; kindOf(err) != KindCanceled {
		t.Fatalf("the leaving caller got %v, want a cancellation", err)
	}
	close(g.release)
	if err := <-second; err != nil {
		t.Fatalf("the remaining caller lost its request: %v", err)
	}
	if n := g.hits.Load(); n != 1 {
		t.Fatalf("server saw %d requests, want 1", n)
	}
}

// A caller arriving just after a flight ended gets its result within the
// reuse window, and a fresh request after it.
func TestShareReusesARecentResult(t *testing.T) {
	g := &gatedBin{release: make(chan struct{})}
	close(g.release)
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, Token: StaticToken(secretToken)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		reuse time.Duration
		want  int32
	}{{time.Hour, 1}, {0, 2}} {
		g.hits.Store(0)
		sc := NewShare(tc.reuse).Client(c)
		a, err1 := binOf(sc.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
		b, err2 := binOf(sc.RecycleBin(RecycleBinQuery{}).Collect(context.Background()))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if n := g.hits.Load(); n != tc.want {
			t.Errorf("reuse %v: %d requests, want %d", tc.reuse, n, tc.want)
		}
		if !oneAnswer(a, b) { // one flight's answer, or an equal one kept (share_bin.go)
			t.Errorf("reuse %v: two callers with equal answers hold two copies", tc.reuse)
		}
	}
}
