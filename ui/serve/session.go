package serve

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
)

// session is what the server keeps of one SSH session.
type session struct {
	n       int64 // the server's count of sessions, from 1: names it in the debug log
	key     *Key
	remote  string
	started time.Time
	sess    ssh.Session

	requests atomic.Int64                     // HTTP requests sent for this session (count.go)
	refused  atomic.Int64                     // runs of prompt input dropped past PromptInputLimit
	profile  atomic.Value                     // string: the bound profile, or the one logged in to
	client   atomic.Pointer[api.SharedClient] // the session's client, once its console is built

	mu      sync.Mutex
	program *tea.Program
	reason  string // why the server ended the session ("" = the user quit)
	cancel  context.CancelFunc

	loginCache string // the in-memory cache this session holds a use of ("" for none); guarded by the Server's mu
}

func (ss *session) setProfile(p string) { ss.profile.Store(p) }

// apiClient is the session's client (nil before its console is built).
func (ss *session) apiClient() *api.SharedClient { return ss.client.Load() }

func (ss *session) profileName() string {
	p, _ := ss.profile.Load().(string)
	return p
}

// end closes the session's console for a reason the user is told.
func (ss *session) end(reason string) {
	ss.mu.Lock()
	if ss.reason == "" {
		ss.reason = reason
	}
	p, cancel := ss.program, ss.cancel // program() sets both under mu, maybe while a drain ends the session
	ss.mu.Unlock()
	if p != nil {
		go p.Quit() // Quit waits for the program's loop; never block the caller on it
	}
	if cancel != nil {
		cancel()
	}
}

func (ss *session) endReason() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.reason
}

// gate runs first for every session: it refuses what this server does not
// do (commands, sessions without a terminal, more sessions than allowed),
// registers the session for draining, and writes its one log line.
func (s *Server) gate(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		ss := &session{n: s.sessionSeq.Add(1), key: s.sessionKey(sess), remote: sess.RemoteAddr().String(), started: time.Now(), sess: sess}
		if ss.key != nil {
			ss.setProfile(ss.key.Profile)
		}
		outcome := "closed"
		defer func() { s.logSession(ss, outcome) }()
		defer s.guard.finished(sess) // the pty may close now
		// A client with a pty has its terminal in raw mode: a bare "\n"
		// would leave the client's own "Connection to … closed." starting
		// where this line ended.
		eol := "\n"
		if _, _, ok := sess.Pty(); ok {
			eol = "\r\n"
		}
		refuse := func(why, msg string) {
			outcome = why
			fmt.Fprintf(sess.Stderr(), "vaultdeck: %s%s", msg, eol)
			_ = sess.Exit(1)
		}
		if ss.key == nil { // its line left the keys file since it logged in
			refuse("refused: unknown key", "this key is not in the server's authorized keys")
			return
		}
		if sess.RawCommand() != "" || sess.Subsystem() != "" {
			refuse("refused: command", "this server only serves the vaultdeck console; it runs no commands (connect without one)")
			return
		}
		pty, _, ok := sess.Pty()
		if !ok {
			refuse("refused: no pty", "the console needs a terminal: connect with `ssh -t` from a terminal")
			return
		}
		if pty.Window.Width <= 0 || pty.Window.Height <= 0 {
			// `ssh -tt` fed from a pipe or a script: OpenSSH asks for a pty
			// but sends a 0x0 window, having no terminal to measure. Nobody
			// will ever answer the console, so it must not hold a slot
			// until the idle timeout.
			refuse("refused: no terminal", "the console needs a terminal, but your ssh client has no terminal (it sent a 0x0 window: its input is a pipe or a file); connect from a terminal")
			return
		}
		if why := s.admit(ss); why != "" {
			refuse("refused: "+why, why)
			return
		}
		s.startups.begun(sess.Context()) // the connection is in use: no longer a startup
		defer s.startups.ended(sess.Context())
		defer s.release(ss)
		next(sess)
		if r := ss.endReason(); r != "" {
			outcome = r
			// On stdout, after the program left the alternate screen on
			// stdout: the client orders the two streams independently, and a
			// line on stderr could land on the alternate screen and vanish.
			writeLastLine(sess, ptyMaster(sess), fmt.Sprintf("vaultdeck: %s%s", r, eol))
			_ = sess.Exit(1)
		}
	}
}

// admit counts the session in, or says why not.
func (s *Server) admit(ss *session) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.draining:
		return "the server is shutting down; try again in a moment"
	case len(s.sessions) >= s.cfg.MaxSessions:
		return fmt.Sprintf("the server already serves its maximum of %s; try again later or ask its operator to raise --max-sessions", plural.Count(s.cfg.MaxSessions, "session"))
	case s.keySessions(ss.key) >= s.cfg.MaxKeySessions:
		return fmt.Sprintf("this key already has %s open, its share of the server's; close one, or ask the operator to raise --max-key-sessions", plural.Count(s.cfg.MaxKeySessions, "session"))
	}
	s.sessions[ss.sess] = ss
	return ""
}

// keySessions counts the open sessions of k (s.mu held): by fingerprint,
// so a keys file re-read since does not split one key's count.
func (s *Server) keySessions(k *Key) int {
	n := 0
	for _, o := range s.sessions {
		if o.key.Fingerprint == k.Fingerprint {
			n++
		}
	}
	return n
}

func (s *Server) release(ss *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, ss.sess)
	if h := ss.loginCache; h != "" {
		// a login token's answers live only while a session uses the token
		if c := s.caches[h]; c != nil {
			if c.users--; c.users <= 0 {
				delete(s.caches, h)
			}
		}
	}
	if s.draining && len(s.sessions) == 0 {
		close(s.drained)
	}
}

func (s *Server) lookup(sess ssh.Session) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[sess]
}

// Sessions is the number of sessions being served.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// logSession writes the session's one line. Nothing in it can hold a
// token: the key's fingerprint and comment, the address, the profile name.
func (s *Server) logSession(ss *session, outcome string) {
	attrs := []slog.Attr{
		slog.Int64("session", ss.n),
		slog.String("remote", ss.remote),
		slog.String("profile", ss.profileName()),
		slog.Duration("duration", time.Since(ss.started).Round(time.Millisecond)),
		slog.Int64("requests", ss.requests.Load()),
		slog.String("outcome", outcome),
	}
	if n := ss.refused.Load(); n > 0 {
		attrs = append(attrs, slog.Int64("refused_inputs", n))
	}
	if ss.key != nil {
		attrs = append(attrs, slog.String("key", ss.key.Fingerprint), slog.String("key_comment", ss.key.Comment))
		if ss.key.Principal != "" {
			attrs = append(attrs, slog.String("principal", ss.key.Principal), slog.String("key_id", ss.key.KeyID))
		}
	}
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "ssh session", attrs...)
}

// activity records when the user last typed (or clicked), for the idle
// timeout. Only input counts: a console polling file status still writes
// while its user has walked away.
type activity struct {
	last atomic.Int64 // unix nanoseconds
}

func newActivity() *activity {
	a := &activity{}
	a.last.Store(time.Now().UnixNano())
	return a
}

func (a *activity) idleFor(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, a.last.Load()))
}

// filter sees every message before the model: it notes input, and drops
// what would stop the program on the server or start another one there
// (ctrl+z suspends the server-side program; an exec would run a program on
// the jump host). The console uses neither; this keeps any future key from
// bringing them in over SSH.
func (a *activity) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case tea.KeyMsg, tea.MouseMsg:
		a.last.Store(time.Now().UnixNano())
	case tea.SuspendMsg:
		return nil
	}
	if strings.HasSuffix(fmt.Sprintf("%T", msg), ".execMsg") {
		return nil
	}
	return msg
}

// watchIdle ends the session after limit without input.
func watchIdle(ctx context.Context, ss *session, in *activity, limit time.Duration) {
	t := time.NewTimer(limit)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			idle := in.idleFor(now)
			if idle >= limit {
				ss.end(fmt.Sprintf("closed after %s without input", limit))
				return
			}
			t.Reset(limit - idle)
		}
	}
}
