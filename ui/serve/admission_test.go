package serve

import (
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// holdSilent opens n TCP connections that never send the SSH banner and
// waits until the server has taken each in or sent it away.
func (f *fixture) holdSilent(n int) []*rawConn {
	f.t.Helper()
	conns := make([]*rawConn, n)
	for i := range conns {
		conns[i] = dialRaw(f.t.(*testing.T), f.addr, false)
	}
	return conns
}

// TestSilentSocketsDoNotLockAdminsOut (issue 26 case 7): twelve TCP
// connections that never send the SSH banner, reopened again and again, do
// not keep an admin out: the admin's key login reaches the first frame each
// round, however the random early drop falls (here: always against).
func TestSilentSocketsDoNotLockAdminsOut(t *testing.T) {
	clk := &fakeClock{}
	f := startServer(t, func(c *Config) { c.clock, c.roll = clk, func() int { return 0 } })
	for round := range 3 {
		base := f.srv.startups.admitted()
		silent := f.holdSilent(12)
		// every one of them admitted (each past the fifth closing the oldest)
		waitUntil(t, "the silent sockets taken in", func() bool { return f.srv.startups.admitted() >= base+12 },
			func() string { return fmt.Sprint(f.srv.startups.admitted()-base, " admitted") })
		c, err := f.dial(gossh.PublicKeys(f.bound))
		if err != nil {
			t.Fatalf("round %d: the admin's login failed with 12 silent sockets held: %v", round, err)
		}
		tm := openPty(t, c, nil)
		tm.waitFor("1/12")
		c.Close()
		for _, s := range silent { // reopened, as the attacker does every 31 s
			s.Close()
		}
	}
}

// fakeClock holds the timers startups arm until the test fires them.
type fakeClock struct {
	mu     sync.Mutex
	timers []*fakeTimer
}

type fakeTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) stopper {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{d: d, f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Stop() bool { t.stopped = true; return true }

// fire runs the armed timers of duration d, as if d had passed.
func (c *fakeClock) fire(d time.Duration) int {
	c.mu.Lock()
	var due []*fakeTimer
	keep := c.timers[:0]
	for _, t := range c.timers {
		if t.d == d {
			due = append(due, t)
		} else {
			keep = append(keep, t)
		}
	}
	c.timers = keep
	c.mu.Unlock()
	n := 0
	for _, t := range due {
		if !t.stopped {
			t.f()
			n++
		}
	}
	return n
}

// TestBannerTimeoutClosesSilentSockets: a connection that has sent no SSH
// identification line is closed at the banner timeout (not the 30 s login
// grace time) and told why; one that sent its line stays until the grace
// time.
func TestBannerTimeoutClosesSilentSockets(t *testing.T) {
	clk := &fakeClock{}
	f := startServer(t, func(c *Config) { c.clock = clk; c.PerSourceMaxStartups = -1 })
	silent := f.holdSilent(3)
	spoke := dialRaw(t, f.addr, true)
	waitUntil(t, "4 pending", func() bool { return f.srv.startups.Pending() == 4 },
		func() string { return fmt.Sprint(f.srv.startups.Pending(), " pending") })
	waitUntil(t, "the line read", func() bool { return f.srv.startups.silent() == 3 },
		func() string { return fmt.Sprint(f.srv.startups.silent(), " silent") })
	// every connection's deadline fires: the silent ones are closed, the
	// one that spoke is only marked stale (it may make room later)
	if n := clk.fire(DefaultBannerTimeout); n != 4 {
		t.Fatalf("%d banner deadlines fired; want all 4", n)
	}
	for i, s := range silent {
		if got := s.waitClosed(t, fmt.Sprint("silent ", i)); !strings.Contains(got, reasonTimeout) {
			t.Errorf("silent %d was not told why: %q", i, got)
		}
	}
	if n := f.srv.startups.Pending(); n != 1 {
		t.Fatalf("%d pending; want only the one that spoke", n)
	}
	clk.fire(DefaultLoginGraceTime)
	spoke.waitClosed(t, "the connection that spoke, after the grace time")
}

// TestPerSourceLimitKeepsOthersIn: one address holding its share of
// connections that spoke and stalled is refused more, with a line saying
// why, while a client from another address logs in.
func TestPerSourceLimitKeepsOthersIn(t *testing.T) {
	clk := &fakeClock{}
	f := startServer(t, func(c *Config) {
		c.clock = clk
		c.PerSourceMaxStartups = 3
		c.Listen = "0.0.0.0:0"
		c.ListenExplicit = true
	})
	_, port, _ := net.SplitHostPort(f.addr)
	f.addr = net.JoinHostPort("127.0.0.1", port)
	from := func(ip string) *rawConn {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		c, err := d.Dial("tcp", f.addr)
		if err != nil {
			t.Skipf("cannot dial from %s: %v", ip, err)
		}
		return wrapRaw(t, c, true)
	}
	for range 3 {
		from("127.0.0.2")
	}
	// all three spoke (the server read their lines): none is silent to make room
	waitUntil(t, "3 pending, none silent", func() bool { return f.srv.startups.Pending() == 3 && f.srv.startups.silent() == 0 },
		func() string {
			return fmt.Sprint(f.srv.startups.Pending(), " pending, ", f.srv.startups.silent(), " silent")
		})
	if got := from("127.0.0.2").waitClosed(t, "the fourth from one address"); !strings.Contains(got, reasonSource) {
		t.Fatalf("the fourth from one address got %q", got)
	}
	tm := f.open(f.bound, nil) // from 127.0.0.1
	tm.waitFor("1/12")
}

// TestRandomEarlyDrop: past start, new connections are dropped with
// OpenSSH's probability, rate% at start rising to 100% at full.
func TestRandomEarlyDrop(t *testing.T) {
	s := Startups{Start: 10, Rate: 30, Full: 100}
	for n, want := range map[int]int{0: 0, 9: 0, 10: 30, 55: 65, 99: 99, 100: 100, 500: 100} {
		if got := s.dropChance(n); got != want {
			t.Errorf("%d pending: %d%%, want %d%%", n, got, want)
		}
	}
	var p Startups
	for v, want := range map[string]Startups{"10:30:100": s, "3": {3, 100, 3}} {
		if err := p.Set(v); err != nil || p != want {
			t.Errorf("%q: %v %v", v, p, err)
		}
	}
	for _, bad := range []string{"0", "10:30", "10:130:100", "10:30:5", "x"} {
		if err := p.Set(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// silent is how many pending connections have not spoken.
func (s *startups) silent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for p := range s.live {
		if !p.bannered {
			n++
		}
	}
	return n
}

// admitted is how many times a connection was counted in.
func (s *startups) admitted() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// TestStalledSocketsOfOneAddressDoNotLockItOut: connections that send
// their identification line and then stall (never finish a login) count
// as spoken, so none was closed to make room, and five of them locked
// every admin of their address out until the 30 s grace time; serve
// listens on loopback by default, where every admin behind a jump host
// shares one address. Past the banner timeout a connection without a
// session is stale: it makes room, oldest first, after the silent ones.
func TestStalledSocketsOfOneAddressDoNotLockItOut(t *testing.T) {
	clk := &fakeClock{}
	f := startServer(t, func(c *Config) { c.clock = clk; c.PerSourceMaxStartups = 3 })
	stalled := []*rawConn{dialRaw(t, f.addr, true), dialRaw(t, f.addr, true), dialRaw(t, f.addr, true)}
	waitUntil(t, "3 pending, none silent", func() bool { return f.srv.startups.Pending() == 3 && f.srv.startups.silent() == 0 },
		func() string {
			return fmt.Sprint(f.srv.startups.Pending(), " pending, ", f.srv.startups.silent(), " silent")
		})
	clk.fire(DefaultBannerTimeout) // they spoke, long ago, and logged in to nothing
	tm := f.open(f.bound, nil)     // the admin, from the same address
	tm.waitFor("1/12")
	// One of them made room (the oldest the server took in: its accepts
	// run concurrently, so not necessarily the first dialled), told why.
	var got string
	select {
	case err := <-stalled[0].closed:
		got = fmt.Sprint(string(stalled[0].got), err)
	case err := <-stalled[1].closed:
		got = fmt.Sprint(string(stalled[1].got), err)
	case err := <-stalled[2].closed:
		got = fmt.Sprint(string(stalled[2].got), err)
	case <-time.After(20 * time.Second):
		t.Fatal("no stalled connection was closed to admit the admin")
	}
	if !strings.Contains(got, reasonStale) {
		t.Errorf("the stalled connection closed was not told why: %q", got)
	}
}
