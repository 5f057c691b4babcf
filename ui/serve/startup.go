package serve

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"
)

// DefaultLoginGraceTime is OpenSSH's LoginGraceTime.
const DefaultLoginGraceTime = 30 * time.Second

// startups admits and bounds the connections that have no console session
// (admission.go has the policy's numbers): each is closed once the login
// grace time has passed, and one that has not sent its SSH identification
// line once the banner timeout has; past the limits a new connection first
// makes room by closing the oldest silent one (of its own address when that
// address is at its limit), and is otherwise dropped at random as OpenSSH's
// MaxStartups start:rate:full does, told why in a line before the banner.
//
// A connection is a startup until its first session is admitted, not merely
// until it authenticated, and again once its last session ended: a client
// that logs in and opens no session (or only sessions refused by
// --max-sessions), or keeps its connection after quitting, holds a
// descriptor as surely as one that never sends a byte, and must not escape
// the count that way. One mutex guards every connection's state, so closing
// one connection to admit another cannot deadlock against its own timers.
type startups struct {
	grace     time.Duration // <= 0: no grace limit
	banner    time.Duration // <= 0: no banner deadline
	lim       Startups
	perSource int // <= 0: no per-address limit
	log       *slog.Logger
	clock     clock
	roll      func() int // [0,100): the random early drop's draw

	mu       sync.Mutex
	n        int // connections pending now
	bySource map[string]int
	live     map[*pending]struct{}
	seq      uint64
	refused  int // refused since the start limit was last reached
}

func newStartups(cfg Config, log *slog.Logger) *startups {
	s := &startups{grace: cfg.LoginGraceTime, banner: cfg.BannerTimeout, lim: cfg.MaxStartups.orDefault(),
		perSource: cfg.PerSourceMaxStartups, log: log, clock: cfg.clock, roll: cfg.roll,
		bySource: map[string]int{}, live: map[*pending]struct{}{}}
	if s.clock == nil {
		s.clock = realClock{}
	}
	if s.roll == nil {
		s.roll = roll
	}
	return s
}

// startupKey is where a connection's entry sits in its ssh.Context.
type startupKey struct{}

// pending is what startups keeps of one connection; its fields but the
// first three are guarded by startups.mu.
type pending struct {
	conn   net.Conn
	source string // the remote address without its port
	spoke  atomic.Bool

	seq      uint64 // arrival order: the oldest silent one goes first
	waiting  bool   // counted in n, its timers armed
	closed   bool
	bannered bool
	stale    bool // spoke, yet no session by the banner timeout: may make room
	sessions int
	gen      int // which arming of the timers is current
	grace    stopper
	deadline stopper // the banner's
}

// accept is the server's connection callback: it counts the connection in,
// or returns nil (the library then closes it) after telling it why.
func (s *startups) accept(ctx ssh.Context, c net.Conn) net.Conn {
	p := &pending{conn: c, source: sourceOf(c.RemoteAddr())}
	s.mu.Lock()
	victim, reason := s.admit(p)
	s.mu.Unlock()
	if victim != nil {
		why := reasonSilent
		if victim.bannered {
			why = reasonStale
		}
		s.log.Debug("closed a waiting connection to admit a new one", "remote", victim.conn.RemoteAddr().String(), "spoke", victim.bannered)
		shut(victim.conn, why)
	}
	if reason != "" {
		s.refuse(c, reason)
		return nil
	}
	ctx.SetValue(startupKey{}, p)
	return &startupConn{Conn: c, st: s, p: p}
}

// admit decides on a new connection (s.mu held): the connection to close
// to make room, if any, and the reason it is refused, if it is.
func (s *startups) admit(p *pending) (victim *pending, reason string) {
	if s.perSource > 0 && s.bySource[p.source] >= s.perSource {
		if victim = s.roomMaker(p.source); victim == nil {
			return nil, reasonSource
		}
		s.out(victim)
	}
	if s.n >= s.lim.Start && victim == nil {
		if victim = s.roomMaker(""); victim != nil {
			s.out(victim)
		}
	}
	if chance := s.lim.dropChance(s.n); chance > 0 && s.roll() < chance {
		return victim, reasonBusy
	}
	s.in(p)
	return victim, ""
}

// roomMaker is the connection (of source, unless "") closed to admit a
// new one: the longest-waiting silent one, else the longest-waiting stale
// one. A client with a key logs in within seconds of its line, so one that
// spoke and has no session after the banner timeout has stalled (or is a
// person at a passphrase prompt, whose connection goes last: it is the
// newest); without this, five such sockets locked their address out until
// the grace time, and on loopback every admin shares one address.
func (s *startups) roomMaker(source string) *pending {
	var silent, stale *pending
	for p := range s.live {
		if source != "" && p.source != source {
			continue
		}
		switch {
		case !p.bannered && (silent == nil || p.seq < silent.seq):
			silent = p
		case p.bannered && p.stale && (stale == nil || p.seq < stale.seq):
			stale = p
		}
	}
	if silent != nil {
		return silent
	}
	return stale
}

// in counts p in and arms its timers (s.mu held).
func (s *startups) in(p *pending) {
	p.waiting, p.stale = true, false
	p.gen++
	s.seq++
	p.seq = s.seq
	s.n++
	s.bySource[p.source]++
	s.live[p] = struct{}{}
	gen := p.gen
	if s.grace > 0 {
		p.grace = s.clock.AfterFunc(s.grace, func() { s.expire(p, gen, false) })
	}
	if s.banner > 0 && !p.bannered {
		p.deadline = s.clock.AfterFunc(s.banner, func() { s.expire(p, gen, true) })
	}
}

// out counts p out (s.mu held).
func (s *startups) out(p *pending) {
	if !p.waiting {
		return
	}
	p.waiting = false
	for _, t := range []stopper{p.grace, p.deadline} {
		if t != nil {
			t.Stop()
		}
	}
	delete(s.live, p)
	s.n--
	if s.bySource[p.source]--; s.bySource[p.source] <= 0 {
		delete(s.bySource, p.source)
	}
	if s.n < s.lim.Start && s.refused > 0 {
		s.log.Warn("accepting connections again", "refused", s.refused, "max_startups", s.lim.String())
		s.refused = 0
	}
}

// refuse tells a connection why it is closed, logging one line per episode
// rather than one per connection of a flood.
func (s *startups) refuse(c net.Conn, reason string) {
	s.mu.Lock()
	s.refused++
	first := s.refused == 1
	s.mu.Unlock()
	if first {
		s.log.Warn("refusing connections: too many have no session; raise --max-startups if this is not an attack",
			"max_startups", s.lim.String(), "per_source", s.perSource, "remote", c.RemoteAddr().String())
	}
	say(c, reason)
	// Read what the client already sent (its own identification line)
	// before the library closes: closing with it unread resets the
	// connection, and the client reports a reset instead of a close.
	_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	_, _ = c.Read(make([]byte, 512))
}

// expire closes a connection still without a session after the grace time
// or, banner set, still silent after the banner timeout.
func (s *startups) expire(p *pending, gen int, banner bool) {
	s.mu.Lock()
	if banner && p.bannered && p.waiting && p.gen == gen {
		p.stale = true // spoke, but no session yet: it may make room now
	}
	if !p.waiting || p.gen != gen || (banner && p.bannered) {
		s.mu.Unlock()
		return
	}
	s.out(p)
	s.mu.Unlock()
	if banner {
		s.log.Debug("closed a connection that sent no SSH identification", "remote", p.conn.RemoteAddr().String(), "timeout", s.banner)
		shut(p.conn, reasonTimeout)
		return
	}
	s.log.Debug("closed a connection without a session after the login grace time",
		"remote", p.conn.RemoteAddr().String(), "grace", s.grace)
	_ = p.conn.Close()
}

// spoke notes that p sent its identification line. Its banner deadline
// stays armed: at it, a connection that spoke and still has no session is
// stale (expire).
func (s *startups) spoke(p *pending) {
	s.mu.Lock()
	p.bannered = true
	s.mu.Unlock()
}

// begun notes that a session of the connection of ctx was admitted.
func (s *startups) begun(ctx ssh.Context) {
	if p, ok := ctx.Value(startupKey{}).(*pending); ok {
		s.mu.Lock()
		p.sessions++
		s.out(p)
		s.mu.Unlock()
	}
}

// ended notes that an admitted session ended; a connection left without
// sessions is a startup again (or closed, when the limits are reached).
func (s *startups) ended(ctx ssh.Context) {
	p, ok := ctx.Value(startupKey{}).(*pending)
	if !ok {
		return
	}
	s.mu.Lock()
	p.sessions--
	if p.sessions > 0 || p.closed || p.waiting {
		s.mu.Unlock()
		return
	}
	if s.n >= s.lim.Full || (s.perSource > 0 && s.bySource[p.source] >= s.perSource) {
		s.mu.Unlock()
		_ = p.conn.Close()
		return
	}
	s.in(p)
	s.mu.Unlock()
}

// Pending is the number of connections without a session.
func (s *startups) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// startupConn counts its connection out when it closes, however it ends,
// and notes the end of the client's identification line.
type startupConn struct {
	net.Conn
	st *startups
	p  *pending
}

func (c *startupConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && !c.p.spoke.Load() && bytes.IndexByte(b[:n], '\n') >= 0 {
		c.p.spoke.Store(true)
		c.st.spoke(c.p)
	}
	return n, err
}

func (c *startupConn) Close() error {
	c.st.mu.Lock()
	c.p.closed = true
	c.st.out(c.p)
	c.st.mu.Unlock()
	return c.Conn.Close()
}

func sourceOf(a net.Addr) string {
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}

// say writes one line before the banner, never waiting long on a client
// that does not read.
func say(c net.Conn, line string) {
	_ = c.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = io.WriteString(c, line+"\r\n")
}

// shut says why and closes.
func shut(c net.Conn, line string) {
	say(c, line)
	_ = c.Close()
}
