// Package serve serves the console over SSH (`vaultdeck serve`), for a
// jump host where the API tokens live and admins arrive with nothing but
// ssh: public keys only, one console program per session with that
// session's size and colours, and one request budget, response cache and
// set of in-flight requests shared by every session on the same token.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/liblog"
)

// Defaults of the limits.
const (
	DefaultListen      = "127.0.0.1:2222"
	DefaultMaxSessions = 16
	DefaultIdleTimeout = 30 * time.Minute
	// drainGrace bounds how long SIGTERM waits for sessions to close after
	// they were told to.
	drainGrace = 10 * time.Second
	// shareReuse is how long an answer fetched for one session also serves
	// the others on the same token: admins opening the same view within a
	// couple of seconds of each other cost one request, and nobody sees an
	// answer older than this unless their view chose its cache.
	shareReuse = 2 * time.Second
)

// Config is what `vaultdeck serve` was given.
type Config struct {
	Listen         string
	ListenExplicit bool // --listen was given: only then a non-loopback address is allowed
	AuthorizedKeys string
	RevokedKeys    string // plain public keys refused, as sshd's RevokedKeys ("" = none); read at each login
	HostKey        string // "" = StateDir/HostKeyName
	AllowWrites    bool
	MaxSessions    int // 0 = DefaultMaxSessions
	// MaxKeySessions bounds the sessions of one key (or one certificate's
	// key ID), so one admin's tabs cannot lock the others out; 0 = half of
	// MaxSessions (at least 1).
	MaxKeySessions int
	IdleTimeout    time.Duration // 0 = DefaultIdleTimeout; negative = none
	// Before its first session: a connection is closed after
	// LoginGraceTime, or after BannerTimeout if it has not sent its SSH
	// identification line by then; past MaxStartups (and
	// PerSourceMaxStartups from one address) such connections, a new one
	// first makes room by closing the oldest silent one, and is otherwise
	// dropped at random (OpenSSH's LoginGraceTime, MaxStartups and
	// PerSourceMaxStartups; admission.go).
	LoginGraceTime       time.Duration // 0 = DefaultLoginGraceTime; negative = none
	BannerTimeout        time.Duration // 0 = DefaultBannerTimeout; negative = none
	MaxStartups          Startups      // zero = DefaultMaxStartups
	PerSourceMaxStartups int           // 0 = DefaultPerSourceMaxStartups; negative = none
	clock                clock         // tests: fired by hand; nil = real time
	roll                 func() int    // tests: the random drop's draw; nil = random

	// Flags are the command line's, for every session, weighed by
	// account.Resolve as for any command: --base-url, --region and
	// --ca-file say where keys without a bound profile log in (base URL
	// wins; a bound profile connects where it was stored); --timeout,
	// --max-rate, --theme and --stuck-after, when typed, win over a bound
	// profile's settings, which win over the defaults.
	Flags account.Flags

	Getenv func(string) string // the server's environment (paths, credentials)
	Logger *slog.Logger        // one line per session; never a token
	// DebugLog, when set, takes a line per request of every session
	// (debuglog.go), redacted by the server before it is written.
	DebugLog *slog.Logger
	// DebugHeaders: each line has both sides' headers too, credentials
	// withheld (VAULTDECK_DEBUG=api).
	DebugHeaders bool
	HTTPClient   *http.Client // tests
	Limits       api.Limits
	// Ready is called once the server listens (tests read the address).
	Ready func(net.Addr)
	// CrawlEvery runs the access crawl of every bound profile on this
	// schedule (crawl.go); 0: never. CrawlDone, when set, hears of each.
	CrawlEvery time.Duration
	CrawlDone  func(profile string, sn store.AccessSnapshot, err error)
}

// Server is a running (or checked) serve set-up.
type Server struct {
	cfg    Config
	osUser string       // the local account serve runs as, for the record
	debug  *slog.Logger // --debug's; nil: off
	// sessionSeq numbers the sessions (log lines, debug lines)
	sessionSeq atomic.Int64
	keys       *Keys    // as last applied (reload.go); guarded by mu
	keysSum    [32]byte // the content they were parsed from; guarded by mu
	st         *store.Store
	log        *slog.Logger
	budgets    *api.Budgets // one registry: sessions on one token share its budget
	share      *api.Share   // identical in-flight GETs made once

	mu       sync.Mutex
	bound    map[string]*profileBackend // by profile name
	caches   map[string]*memCache       // login sessions' caches, by token hash
	sessions map[ssh.Session]*session
	draining bool
	drained  chan struct{} // closed when draining and the last session left
	// closeGrace is how long a drained server waits for clients to close
	// their connections before it closes them.
	closeGrace time.Duration
	srv        *ssh.Server
	guard      *ptyGuard
	startups   *startups
	// The redactors of every client the server made (client): a
	// library's log line may quote what any of their servers sent.
	redBound  liblog.Redactors // the bound profiles' (backendFor), for the server's life
	redRecent liblog.Redactors // every client's, the most recent
}

// New validates the set-up: keys file, host key, listen address, store.
// It reports skipped key lines to warn. It does not listen.
func New(cfg Config, warn io.Writer) (*Server, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxKeySessions <= 0 || cfg.MaxKeySessions > cfg.MaxSessions {
		cfg.MaxKeySessions = max(1, cfg.MaxSessions/2)
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.LoginGraceTime == 0 {
		cfg.LoginGraceTime = DefaultLoginGraceTime
	}
	if cfg.BannerTimeout == 0 {
		cfg.BannerTimeout = DefaultBannerTimeout
	}
	cfg.MaxStartups = cfg.MaxStartups.orDefault()
	if cfg.PerSourceMaxStartups == 0 {
		cfg.PerSourceMaxStartups = DefaultPerSourceMaxStartups
	}
	if err := checkListen(cfg.Listen, cfg.ListenExplicit); err != nil {
		return nil, err
	}
	keys, err := LoadKeys(cfg.AuthorizedKeys)
	if keys != nil {
		for _, p := range keys.Problems {
			fmt.Fprintf(warn, "vaultdeck serve: %s: %s\n", cfg.AuthorizedKeys, p)
		}
	}
	if err != nil {
		return nil, err
	}
	if cfg.HostKey == "" {
		dir, err := StateDir(cfg.Getenv)
		if err != nil {
			return nil, fmt.Errorf("no place for the host key: %w", err)
		}
		cfg.HostKey = filepath.Join(dir, HostKeyName)
	}
	paths, err := store.DefaultPaths(cfg.Getenv)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(paths.Database())
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := &Server{
		cfg: cfg, keys: keys, st: st, log: log, osUser: localUser(), debug: cfg.DebugLog,
		budgets: api.NewBudgets(), share: api.NewShare(shareReuse),
		bound: map[string]*profileBackend{}, caches: map[string]*memCache{},
		sessions: map[ssh.Session]*session{}, closeGrace: 2 * time.Second,
		startups:  newStartups(cfg, log),
		redRecent: liblog.Redactors{Max: recentRedactors},
	}
	// the content's sum as read now: the watch applies the file when it differs
	_, srv.keysSum, _ = srv.readKeys()
	return srv, nil
}

// Close releases the store.
func (s *Server) Close() error { return s.st.Close() }

// Keys are the accepted authorized keys, as last applied.
func (s *Server) Keys() *Keys {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys
}

// checkListen refuses a non-loopback address unless it was asked for.
func checkListen(addr string, explicit bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: %w", addr, err)
	}
	if explicit || api.IsLoopback(host) {
		return nil
	}
	return fmt.Errorf("refusing to listen on %s, which is not a loopback address: give --listen %s explicitly to serve the network", addr, addr)
}

// Serve listens and serves until ctx ends, then drains: every session is
// told the server is going away and ended, and Serve returns once they
// closed (or after a grace period).
func (s *Server) Serve(ctx context.Context) error {
	signer, created, err := HostKey(s.cfg.HostKey)
	if err != nil {
		return err
	}
	if created {
		s.log.Info("generated a host key", "path", s.cfg.HostKey)
	}
	srv, err := wish.NewServer(
		wish.WithAddress(s.cfg.Listen),
		wish.WithVersion("vaultdeck"),
		func(srv *ssh.Server) error { srv.AddHostKey(signer); return nil },
		wish.WithPublicKeyAuth(s.authorize),
		// A real pty per session, as sshd gives: the program puts it in raw
		// mode and its output reaches the client byte for byte. The library's
		// emulated pty instead rewrites every "\n" as "\r\n", a byte per
		// unchanged line of every frame on the wire.
		ssh.AllocatePty(),
		// Passwords and keyboard-interactive are never offered: with no
		// handler set, the SSH library does not advertise them.
		// The session handler is sessionChannel's, built per session
		// (run.go): gate, debug log, program.
	)
	if err != nil {
		return err
	}
	// No port or agent forwarding, no X11, no subsystems (sftp): the
	// library refuses channels and requests it has no handler for, and no
	// forwarding callback is set.
	if s.cfg.IdleTimeout > 0 {
		// A connection with no traffic at all (one that never finished its
		// handshake, or left behind by a client) goes a minute after a
		// session's own idle timeout would have ended it with a message.
		srv.IdleTimeout = s.cfg.IdleTimeout + time.Minute
	}
	// Idle and banner-only clients, and clients that log in but open no
	// console, are closed after the login grace time and bounded in number,
	// so they cannot exhaust the server's file descriptors.
	srv.ConnCallback = s.startups.accept
	guard := newPtyGuard()
	srv.PtyHandler = guard.wrap(srv.PtyHandler)
	srv.SessionRequestCallback = guard.started
	s.mu.Lock()
	s.guard = guard
	s.mu.Unlock()
	// only sessions: no direct-tcpip or other channel is ever served
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel(srv)}
	srv.LocalPortForwardingCallback = nil
	srv.ReversePortForwardingCallback = nil
	srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{}

	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
	s.log.Info("serving the console over SSH", "addr", ln.Addr().String(), "keys", len(s.Keys().List),
		"allow_writes", s.cfg.AllowWrites, "max_sessions", s.cfg.MaxSessions, "max_key_sessions", s.cfg.MaxKeySessions,
		"login_grace_time", s.cfg.LoginGraceTime, "banner_timeout", s.cfg.BannerTimeout,
		"max_startups", s.cfg.MaxStartups.String(), "per_source_max_startups", s.cfg.PerSourceMaxStartups)
	if s.cfg.Ready != nil {
		s.cfg.Ready(ln.Addr())
	}
	s.startCrawls(ctx)
	go s.watchKeys(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	return s.drain(srv, ln, done)
}

// drain stops accepting, tells every session why it ends, waits for them
// to close (at most drainGrace), then closes the connections: a client
// multiplexing sessions would otherwise hold its connection open forever.
func (s *Server) drain(srv *ssh.Server, ln net.Listener, done chan error) error {
	s.mu.Lock()
	s.draining = true
	s.drained = make(chan struct{})
	live := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		live = append(live, ss)
	}
	if len(live) == 0 {
		close(s.drained)
	}
	drained := s.drained
	s.mu.Unlock()
	s.log.Info("shutting down", "sessions", len(live))
	for _, ss := range live {
		ss.end("the server is shutting down; your session was closed")
	}
	timer := time.NewTimer(drainGrace)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
		s.log.Warn("sessions still open after the grace period; closing them", "grace", drainGrace)
	}
	// Clients close their connection once their last session is gone; give
	// them a moment, so they see an orderly end rather than a reset.
	ctx, cancel := context.WithTimeout(context.Background(), s.closeGrace)
	defer cancel()
	err := srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	// The library closes only the listeners its Serve has taken: told to
	// stop before its goroutine got that far, it would then sit in Accept
	// for good. The listener is ours; closing it twice is harmless.
	_ = ln.Close()
	<-done
	if errors.Is(err, ssh.ErrServerClosed) {
		err = nil
	}
	return err
}

// recentRedactors is how many clients' redactors a library's log line
// passes through beside the bound profiles': far more than the sessions a
// server holds at once (--max-sessions), whose connections are the only
// ones a library logs about.
const recentRedactors = 64

// libraryLine is a library's log line (liblog), as a line of serve's own
// log: already redacted (redactTokens) and cleaned.
func (s *Server) libraryLine(line string) { s.log.Warn("a library logged", "line", line) }

// redactTokens removes from s every token a client of the server uses.
func (s *Server) redactTokens(text string) string {
	return s.redRecent.Redact(s.redBound.Redact(text))
}

// debugLog routes the wish logging middleware's connect/disconnect lines
// to debug level: the one info line per session is the server's own.
type debugLog struct{ l *slog.Logger }

func (d debugLog) Printf(format string, v ...any) {
	d.l.Debug(fmt.Sprintf(format, v...))
}
