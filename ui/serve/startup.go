package serve

import (
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
)

// Defaults of the pre-authentication limits, OpenSSH's LoginGraceTime and
// the first figure of its MaxStartups.
const (
	DefaultLoginGraceTime = 30 * time.Second
	DefaultMaxStartups    = 10
)

// startups bounds the connections that have no console session: each is
// closed once the login grace time has passed, and past max of them a new
// connection is closed at once. A connection is a startup until its first
// session is admitted, not merely until it authenticated, and again once
// its last session ended: a client that logs in and opens no session (or
// only sessions refused by --max-sessions), or keeps its connection after
// quitting, holds a descriptor as surely as one that never sends a byte,
// and must not escape the session count that way.
type startups struct {
	grace time.Duration // <= 0: no grace limit
	max   int
	log   *slog.Logger

	mu      sync.Mutex
	n       int // connections pending now
	refused int // refused since the limit was last reached
}

// startupKey is where a connection's entry sits in its ssh.Context.
type startupKey struct{}

// pending is what startups keeps of one connection.
type pending struct {
	st   *startups
	conn net.Conn

	mu       sync.Mutex
	waiting  bool // counted in st.n, its grace timer armed
	closed   bool
	sessions int
	gen      int // which arming of the timer is current
	timer    *time.Timer
}

// accept is the server's connection callback: it counts the connection in,
// or returns nil (the library then closes it) when max are pending.
func (s *startups) accept(ctx ssh.Context, c net.Conn) net.Conn {
	if !s.enter(c) {
		return nil
	}
	p := &pending{st: s, conn: c}
	p.mu.Lock()
	p.wait()
	p.mu.Unlock()
	ctx.SetValue(startupKey{}, p)
	return &startupConn{Conn: c, p: p}
}

// enter counts a connection in, or refuses it when max are pending.
func (s *startups) enter(c net.Conn) bool {
	s.mu.Lock()
	if s.n >= s.max {
		s.refused++
		first := s.refused == 1
		s.mu.Unlock()
		if first { // one line per episode, not one per connection of a flood
			s.log.Warn("refusing connections: too many have no session; raise --max-startups if this is not an attack",
				"max_startups", s.max, "remote", c.RemoteAddr().String())
		}
		return false
	}
	s.n++
	s.mu.Unlock()
	return true
}

// leave counts a connection out.
func (s *startups) leave() {
	s.mu.Lock()
	s.n--
	refused := 0
	if s.n < s.max {
		refused, s.refused = s.refused, 0
	}
	s.mu.Unlock()
	if refused > 0 {
		s.log.Warn("accepting connections again", "refused", refused, "max_startups", s.max)
	}
}

// wait arms the grace timer of a connection just counted in. p.mu is held.
func (p *pending) wait() {
	p.waiting = true
	p.gen++
	if p.st.grace > 0 {
		gen := p.gen
		p.timer = time.AfterFunc(p.st.grace, func() { p.expire(gen) })
	}
}

// stopWaiting counts the connection out. p.mu is held.
func (p *pending) stopWaiting() {
	if !p.waiting {
		return
	}
	p.waiting = false
	if p.timer != nil {
		p.timer.Stop()
	}
	p.st.leave()
}

// expire closes a connection still without a session after the grace time.
func (p *pending) expire(gen int) {
	p.mu.Lock()
	if !p.waiting || p.gen != gen {
		p.mu.Unlock()
		return
	}
	p.stopWaiting()
	p.mu.Unlock()
	p.st.log.Debug("closed a connection without a session after the login grace time",
		"remote", p.conn.RemoteAddr().String(), "grace", p.st.grace)
	_ = p.conn.Close()
}

// begun notes that a session of the connection of ctx was admitted.
func (s *startups) begun(ctx ssh.Context) {
	if p, ok := ctx.Value(startupKey{}).(*pending); ok {
		p.mu.Lock()
		p.sessions++
		p.stopWaiting()
		p.mu.Unlock()
	}
}

// ended notes that an admitted session ended; a connection left without
// sessions is a startup again (or closed, when max are pending).
func (s *startups) ended(ctx ssh.Context) {
	p, ok := ctx.Value(startupKey{}).(*pending)
	if !ok {
		return
	}
	p.mu.Lock()
	p.sessions--
	if p.sessions > 0 || p.closed || p.waiting {
		p.mu.Unlock()
		return
	}
	if !s.enter(p.conn) {
		p.mu.Unlock()
		_ = p.conn.Close()
		return
	}
	p.wait()
	p.mu.Unlock()
}

// Pending is the number of connections without a session.
func (s *startups) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// startupConn counts its connection out when it closes, however it ends.
type startupConn struct {
	net.Conn
	p *pending
}

func (c *startupConn) Close() error {
	c.p.mu.Lock()
	c.p.closed = true
	c.p.stopWaiting()
	c.p.mu.Unlock()
	return c.Conn.Close()
}
