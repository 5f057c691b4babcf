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

// startups bounds the connections that have not yet begun a console
// session: each is closed once the login grace time has passed, and past
// max of them a new connection is closed at once. A connection stays a
// startup until its first session is admitted, not merely until it
// authenticated: a client that authenticates and opens no session (or only
// sessions refused by --max-sessions) holds a descriptor as surely as one
// that never sends a byte, and must not escape the session count that way.
type startups struct {
	grace time.Duration // <= 0: no grace limit
	max   int
	log   *slog.Logger

	mu      sync.Mutex
	n       int // connections pending now
	refused int // refused since the limit was last reached
}

// startupKey is where a connection's pending entry sits in its ssh.Context.
type startupKey struct{}

// pending is one connection that has not begun a session yet.
type pending struct {
	st   *startups
	conn net.Conn
	once sync.Once

	mu    sync.Mutex // the timer may fire before AfterFunc has returned
	timer *time.Timer
}

// accept is the server's connection callback: it counts the connection in,
// or returns nil (the library then closes it) when max are pending.
func (s *startups) accept(ctx ssh.Context, c net.Conn) net.Conn {
	s.mu.Lock()
	if s.n >= s.max {
		s.refused++
		first := s.refused == 1
		s.mu.Unlock()
		if first { // one line per episode, not one per connection of a flood
			s.log.Warn("refusing connections: too many are not logged in yet; raise --max-startups if this is not an attack",
				"max_startups", s.max, "remote", c.RemoteAddr().String())
		}
		return nil
	}
	s.n++
	s.mu.Unlock()
	p := &pending{st: s, conn: c}
	if s.grace > 0 {
		p.mu.Lock()
		p.timer = time.AfterFunc(s.grace, p.expire)
		p.mu.Unlock()
	}
	ctx.SetValue(startupKey{}, p)
	return &startupConn{Conn: c, p: p}
}

// expire closes a connection still pending after the grace time.
func (p *pending) expire() {
	if p.settle() {
		p.st.log.Debug("closed a connection that did not begin a session within the login grace time",
			"remote", p.conn.RemoteAddr().String(), "grace", p.st.grace)
		_ = p.conn.Close()
	}
}

// settle ends the connection's pending state; it reports whether this call
// did (a session began, the connection closed, or the grace ran out: the
// first of these wins).
func (p *pending) settle() bool {
	settled := false
	p.once.Do(func() {
		settled = true
		p.mu.Lock()
		if p.timer != nil {
			p.timer.Stop()
		}
		p.mu.Unlock()
		s := p.st
		s.mu.Lock()
		s.n--
		refused := s.refused
		if s.n < s.max {
			s.refused = 0
		} else {
			refused = 0
		}
		s.mu.Unlock()
		if refused > 0 {
			s.log.Warn("accepting connections again", "refused", refused, "max_startups", s.max)
		}
	})
	return settled
}

// begun marks the connection of ctx as past its start: a session of it
// was admitted.
func (s *startups) begun(ctx ssh.Context) {
	if p, ok := ctx.Value(startupKey{}).(*pending); ok {
		p.settle()
	}
}

// Pending is the number of connections that have not begun a session.
func (s *startups) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// startupConn settles its pending entry when the connection closes, however
// it ends.
type startupConn struct {
	net.Conn
	p *pending
}

func (c *startupConn) Close() error {
	c.p.settle()
	return c.Conn.Close()
}
