package api_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// gated is the simulator behind a gate that answers the next n vault
// requests 429 (n < 0: all of them) with Retry-After set to header
// (absent: nil), as a hostile or broken service would. at records the
// client clock of every vault request that reached the gate.
type gated struct {
	next    http.Handler // the simulator
	clock   *jumpClock
	mu      sync.Mutex
	n       int
	header  *string
	at      []time.Time
	latency []time.Duration // the first vault answers take this long, on the clock
}

func (g *gated) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/v1/vault/") {
		g.mu.Lock()
		g.at = append(g.at, g.clock.Now())
		if len(g.latency) > 0 {
			g.clock.Sleep(context.Background(), g.latency[0])
			g.latency = g.latency[1:]
		}
		limited := g.n != 0
		if g.n > 0 {
			g.n--
		}
		h := g.header
		g.mu.Unlock()
		if limited {
			if h != nil {
				w.Header()["Retry-After"] = []string{*h}
			}
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":"rate limited"}`))
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

// limit429 makes the next n vault requests 429 with header (nil: none).
func (g *gated) limit429(n int, header *string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n, g.header, g.at = n, header, nil
}

func (g *gated) requests() []time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]time.Time(nil), g.at...)
}

// jumpClock is the machine's wall clock in these tests: sleeping advances
// it (and the simulator), and set moves it anywhere, as an NTP step or a
// restored VM snapshot does.
type jumpClock struct {
	mu  sync.Mutex
	now time.Time
	s   *sim.Server
}

func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *jumpClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.now = c.now.Add(max(d, 0))
	c.mu.Unlock()
	c.s.Advance(max(d, 0))
	return nil
}

func (c *jumpClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// process is one vaultdeck process of the machine: its client (its own
// Budgets, the machine's ledger), the waits it reported and the notices
// it said.
type process struct {
	c       *api.Client
	waits   []api.Wait
	notices []string
}

// gatedLedger is the gated simulator, one store on disk as the machine's
// ledger, and a constructor of processes.
func gatedLedger(t *testing.T) (*gated, func() *process) {
	t.Helper()
	g := &gated{clock: &jumpClock{now: simEpoch}}
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, Now: fixedClock},
		Wrap: func(next http.Handler) http.Handler { g.next = next; return g }})
	g.clock.s = e.Sim
	// No fsync per commit: these tests are about what is read back, not
	// about surviving a power cut, and they open a store per case.
	st, err := store.OpenWith(filepath.Join(t.TempDir(), store.FileName), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return g, func() *process {
		p := &process{}
		p.c = e.NewClient(t, "admin", api.Config{Clock: g.clock, Budgets: api.NewBudgets(), Ledger: st,
			Notice: func(s string) { p.notices = append(p.notices, s) }})
		return p
	}
}

// observing is a context whose waits are appended to p.waits.
func (p *process) observing() context.Context {
	return api.WithWaitObserver(context.Background(), func(w api.Wait) { p.waits = append(p.waits, w) })
}

// longestHold is the most any wait may be, whatever the service said: the
// documented maximum of a Retry-After.
const longestHold = 2 * time.Minute

// oneWindow is the service's rate window (with the client's second of
// slack): what a 429 proves full, whatever its Retry-After says.
const oneWindow = time.Minute + time.Second

func checkWaits(t *testing.T, what string, ws []api.Wait) {
	t.Helper()
	for _, w := range ws {
		if w.For < 0 || w.For > longestHold || strings.Contains(w.String(), "-") && strings.Contains(w.String(), "h") {
			t.Errorf("%s: a wait of %v (%s)", what, w.For, w)
		}
	}
}

// Issue 26 case 1: one 429 with a Retry-After of decades was written to the
// shared ledger and held every later process (and serve session) for as
// long, on a service healthy again. Each form is clamped to the documented
// maximum: the process that met it waits at most that, a later process on
// the healthy service at most the rest of it, and the message never reads
// as a negative or overflowed duration.
func TestRetryAfterOfDecadesHoldsNoLongerThanTheMaximum(t *testing.T) {
	for _, v := range []string{"999999999", "Fri, 31 Dec 9999 23:59:59 GMT", "99999999999999999999999999",
		"Sun, 06 Nov 2094 08:49:37 GMT", "Sun Nov  6 08:49:37 2094" /* asctime */} {
		g, process := gatedLedger(t)
		g.limit429(1, &v)
		// The first process meets the 429 and is stopped while it waits.
		p1 := process()
		ctx, cancel := context.WithCancel(context.Background())
		ctx = api.WithWaitObserver(ctx, func(w api.Wait) { p1.waits = append(p1.waits, w); cancel() })
		if _, err := p1.c.ProjectsPage(ctx, api.ProjectQuery{}); err == nil {
			t.Fatalf("%q: the first process was not stopped in its wait", v)
		}
		checkWaits(t, v+": first process", p1.waits)
		if len(p1.notices) != 1 || !strings.Contains(p1.notices[0], "vaultdeck waits at most 2m0s") {
			t.Errorf("%q: said %q", v, p1.notices)
		}
		// A later process, on the healthy service, is not held by a
		// value no one can believe: the ledger keeps only what the 429
		// itself proves (the window is full), never the service's decades
		// clamped to the maximum.
		start := g.clock.Now()
		p2 := process()
		if _, err := p2.c.ProjectsPage(p2.observing(), api.ProjectQuery{}); err != nil {
			t.Fatalf("%q: later process: %v", v, err)
		}
		checkWaits(t, v+": later process", p2.waits)
		if held := g.clock.Now().Sub(start); held > oneWindow {
			t.Errorf("%q: a later process on a healthy service was held %v", v, held)
		}
		// Answered forever, the message says a bounded wait.
		g.limit429(-1, &v)
		p3 := process()
		_, err := p3.c.ProjectsPage(context.Background(), api.ProjectQuery{})
		var ae *api.Error
		if !errors.As(err, &ae) || ae.RetryAfter <= 0 || ae.RetryAfter > longestHold || strings.Contains(err.Error(), "in -") {
			t.Errorf("%q: answered forever: %v", v, err)
		}
		if len(p3.notices) != 1 {
			t.Errorf("%q: one bad answer, repeated, was said %d times: %q", v, len(p3.notices), p3.notices)
		}
	}
}

// Issue 26 case 2: a Retry-After that is no usable wait (a float past any
// duration, NaN, infinity, negative, empty, garbage, a date in the past)
// gave a negative or zero wait: 6 requests in 0.3 s. It counts as absent:
// the window's own wait, so no two requests of the call are less than a
// second apart and the call gives up within the promise.
func TestUnusableRetryAfterIsNoTightLoop(t *testing.T) {
	for _, v := range []string{"1e30", "NaN", "Inf", "+Inf", "-Inf", "-1", "-1e30", "", "  ", "garbage", "1e18", "0x10",
		"1e400", "9223372036.854775807", "Mon, 01 Jan 2001 00:00:00 GMT", "Mon, 01 Jan 0001 00:00:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "0", "0.0001"} {
		g, process := gatedLedger(t)
		g.limit429(-1, &v)
		p := process()
		_, err := p.c.ProjectsPage(p.observing(), api.ProjectQuery{})
		if kind := (*api.Error)(nil); !errors.As(err, &kind) || kind.Kind != api.KindRateLimited {
			t.Errorf("%q: %v", v, err)
		}
		checkWaits(t, v, p.waits)
		if len(p.notices) > 1 {
			t.Errorf("%q: said %d times: %q", v, len(p.notices), p.notices)
		}
		at := g.requests()
		for i := 1; i < len(at); i++ {
			if gap := at[i].Sub(at[i-1]); gap < time.Second {
				t.Errorf("%q: %d requests, %v between the %d and %d (a tight loop)", v, len(at), gap, i, i+1)
				break
			}
		}
	}
}

// Issue 26 case 9: a 429 answered forever without Retry-After was waited
// out for 305 s (six full windows) though the README promises 3 minutes of
// waiting in all. Every wait after the first answer counts (the budget's
// too), each is reported, and the call gives up within the promise.
func TestRetriesKeepTheThreeMinutePromise(t *testing.T) {
	g, process := gatedLedger(t)
	g.limit429(-1, nil)
	// The first answer takes a second, the next a tenth: the next 429
	// comes while the sends the first counted are still in the window.
	latency := []time.Duration{time.Second, 100 * time.Millisecond, 100 * time.Millisecond, 100 * time.Millisecond,
		100 * time.Millisecond, 100 * time.Millisecond}
	g.latency = latency
	p := process()
	_, err := p.c.ProjectsPage(p.observing(), api.ProjectQuery{})
	if kindOf := (*api.Error)(nil); !errors.As(err, &kindOf) || kindOf.Kind != api.KindRateLimited {
		t.Fatalf("got %v", err)
	}
	at := g.requests()
	if len(at) == 0 {
		t.Fatal("nothing was sent")
	}
	waited := g.clock.Now().Sub(at[0])
	for _, d := range latency[:len(at)] {
		waited -= d // the answers' own time
	}
	if waited > 3*time.Minute {
		t.Errorf("waited %v after the first 429 (%d requests), over the promised 3 minutes", waited, len(at))
	}
	// Each 429 proves the window full from its answer: no retry goes out
	// before a window has passed (one went 3 s after the last, when the
	// sends the previous 429 had counted were about to leave).
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < time.Minute {
			t.Errorf("request %d went %v after the 429 before it", i+1, gap)
		}
	}
	var said time.Duration
	for _, w := range p.waits {
		said += w.For
	}
	if said != waited {
		t.Errorf("the waits reported add up to %v, the clock moved %v: a wait went unsaid", said, waited)
	}
}

// Issue 25 case 3: the machine's clock set back (an NTP step, a restored VM
// snapshot) left the ledger's rows in the future, and every process waited
// for as long as the clock had jumped (hours). A clock set back costs at
// most one window: sends three hours ahead are discarded, and a hold ahead
// past the longest hold is too.
func TestClockSetBackCostsAtMostOneWindow(t *testing.T) {
	g, process := gatedLedger(t)
	later := simEpoch.Add(3 * time.Hour)
	g.clock.set(later)
	c1 := process().c
	for range 9 { // the window is full, three hours ahead
		if _, err := c1.ProjectsPage(context.Background(), api.ProjectQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	hold := "60"
	g.limit429(1, &hold) // and held a minute past it
	ctx, cancel := context.WithCancel(context.Background())
	ctx = api.WithWaitObserver(ctx, func(api.Wait) { cancel() })
	if _, err := c1.ProjectsPage(ctx, api.ProjectQuery{}); len(g.requests()) != 1 || err == nil {
		t.Fatalf("the 429 was not met: %v", err)
	}

	g.clock.set(simEpoch) // set back three hours
	start := g.clock.Now()
	p2 := process()
	for range 2 {
		if _, err := p2.c.ProjectsPage(p2.observing(), api.ProjectQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	if held := g.clock.Now().Sub(start); held > time.Minute+time.Second {
		t.Errorf("after the clock was set back 3h, a process waited %v (%v)", held, p2.waits)
	}
	// Said once, by the process that found it; the next finds nothing.
	if len(p2.notices) != 1 || !strings.Contains(p2.notices[0], "3h") {
		t.Errorf("said %q", p2.notices)
	}
	p3 := process()
	if _, err := p3.c.ProjectsPage(context.Background(), api.ProjectQuery{}); err != nil || len(p3.notices) != 0 {
		t.Errorf("the next process: %v, said again %q", err, p3.notices)
	}
}

// A clock set back by less than the window leaves sends that still count
// (as sent now), so the process may wait up to a window: the line that
// says so must not claim they hold nothing, and then wait a minute.
func TestClockSetBackByLessThanAWindowSaysItsWait(t *testing.T) {
	g, process := gatedLedger(t)
	g.clock.set(simEpoch.Add(20 * time.Second))
	c1 := process().c
	for range 10 { // the window is full, 20 s ahead
		if _, err := c1.ProjectsPage(context.Background(), api.ProjectQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	g.clock.set(simEpoch)
	p2 := process()
	if _, err := p2.c.ProjectsPage(p2.observing(), api.ProjectQuery{}); err != nil {
		t.Fatal(err)
	}
	if len(p2.waits) == 0 {
		t.Fatal("the full window did not hold the request: the test no longer sets up what it describes")
	}
	if len(p2.notices) != 1 || strings.Contains(p2.notices[0], "hold no request") || !strings.Contains(p2.notices[0], "at most") {
		t.Errorf("waited %v after saying %q", p2.waits, p2.notices)
	}
}
