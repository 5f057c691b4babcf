package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"

	"github.com/spf13/pflag"
	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/cli/hangup"
	"github.com/vaultdeck/vaultdeck/ui/liblog"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Env is what the serve command takes from the process.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Flags are the global flags typed (account.Flags): where login
	// sessions connect, and the timeout and max-rate of every session.
	Flags account.Flags
	// Logs is the process's router of the libraries' log lines: while
	// serve runs they are lines of its own log, every token its clients
	// use removed. nil: not routed (tests).
	Logs *liblog.Router
	// Debug is the global --debug and --debug-file: a line per request of
	// each session, tagged with it (debuglog.go).
	Debug Debug
}

// Flags are `vaultdeck serve`'s options, defined on the command line's
// flag set by Register.
type Flags struct {
	Config Config
	Check  bool
	// Metrics is the loopback HOST:PORT of `--metrics` ("": none;
	// registered by the command line, metrics.go serves it).
	Metrics string
}

// Register defines the flags on fs with their defaults.
func (f *Flags) Register(fs *pflag.FlagSet) {
	cfg := &f.Config
	fs.StringVar(&cfg.Listen, "listen", DefaultListen, "`ADDR` to listen on (host:port); a non-loopback address must be given explicitly")
	fs.StringVar(&cfg.AuthorizedKeys, "authorized-keys", "", "OpenSSH authorized_keys `FILE` of the admitted keys (required); bind a key to a profile with vaultdeck-profile=\"NAME\"")
	fs.StringVar(&cfg.RevokedKeys, "revoked-keys", "", "`FILE` of public keys refused (one a line, as OpenSSH's RevokedKeys): a key, a certificate's key or its CA; read at each login")
	fs.StringVar(&cfg.HostKey, "host-key", "", "host key `FILE` (default: "+HostKeyName+" in the state directory; generated when missing)")
	fs.BoolVar(&cfg.AllowWrites, "allow-writes", false, "bind the keys that change the workspace (read-only without it)")
	fs.IntVar(&cfg.MaxSessions, "max-sessions", DefaultMaxSessions, "most sessions served at once")
	fs.IntVar(&cfg.MaxKeySessions, "max-key-sessions", 0, "most sessions of one key at once (default: half of --max-sessions), so one key cannot take every slot")
	fs.DurationVar(&cfg.IdleTimeout, "idle-timeout", DefaultIdleTimeout, "close a session after this long without input (0 = never)")
	fs.DurationVar(&cfg.LoginGraceTime, "login-grace-time", DefaultLoginGraceTime, "close a connection that has not begun a session after this long (0 = never), as OpenSSH's LoginGraceTime")
	fs.DurationVar(&cfg.BannerTimeout, "banner-timeout", DefaultBannerTimeout, "close a connection that has not sent its SSH identification line after this long (0 = never); clients send it at once")
	cfg.MaxStartups = DefaultMaxStartups
	fs.Var(&cfg.MaxStartups, "max-startups", "connections without a session: past start, new ones are dropped at random (rate% rising to 100% at full) after closing the oldest that sent nothing, as OpenSSH's MaxStartups")
	fs.IntVar(&cfg.PerSourceMaxStartups, "per-source-max-startups", DefaultPerSourceMaxStartups, "most connections without a session from one address (0 = no limit), as OpenSSH's PerSourceMaxStartups")
	fs.StringVar(&cfg.Flags.Theme, "theme", "", "colour theme of the sessions (default: a bound profile's theme setting, else auto)")
	fs.DurationVar(&cfg.Flags.StuckAfter, "stuck-after", 0, "mark a file stuck after this long in processing (default: a bound profile's stuck-after setting, else 30m)")
	fs.DurationVar(&cfg.CrawlEvery, "crawl-every", 0, "run the access review's crawl of every bound profile this often (e.g. 24h), for every session to read in :access; 0 = never")
	fs.BoolVar(&f.Check, "check", false, "validate the keys file, the host key and every bound profile's token, then exit")
}

// Start serves (or checks, with --check) until ctx ends; given says which
// flags were typed (0 for --idle-timeout and --login-grace-time then means
// never).
func Start(ctx context.Context, f Flags, given func(string) bool, e Env) int {
	cfg, check := f.Config, f.Check
	cfg.ListenExplicit = given("listen")
	if given("idle-timeout") && cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = -1 // 0 on the command line means never
	}
	if given("login-grace-time") && cfg.LoginGraceTime == 0 {
		cfg.LoginGraceTime = -1
	}
	if given("banner-timeout") && cfg.BannerTimeout == 0 {
		cfg.BannerTimeout = -1
	}
	if given("per-source-max-startups") && cfg.PerSourceMaxStartups == 0 {
		cfg.PerSourceMaxStartups = -1
	}
	cfg.Getenv = e.Getenv
	cfg.Flags = serveFlags(cfg.Flags, e.Flags, given)
	cfg.Logger = slog.New(slog.NewTextHandler(e.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))

	dlog, lvl, sink, err := openDebug(e.Debug, e.Getenv, e.Stderr)
	if err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck serve: %v\n", err)
		return 1
	}
	if sink != nil {
		defer sink.Close()
	}
	cfg.DebugLog, cfg.DebugHeaders = dlog, lvl.Headers
	s, err := New(cfg, e.Stderr)
	if err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck serve: %v\n", err)
		return 1
	}
	defer s.Close()
	if sink != nil {
		sink.SetRedact(s.redactTokens)
	}
	defer e.Logs.Route(s.libraryLine, s.redactTokens)()
	if check {
		return s.Check(ctx, e.Stdout)
	}
	// SIGHUP re-reads the keys file (open sessions of removed keys close)
	// instead of stopping the server, as it makes sshd re-read its set-up.
	ctx, stop := hangup.Keep(ctx, s.Reload)
	defer stop()
	if f.Metrics != "" {
		ms, err := s.ListenMetrics(f.Metrics)
		if err != nil {
			fmt.Fprintf(e.Stderr, "vaultdeck serve: %v\n", err)
			return 1
		}
		defer ms.Close()
		s.log.Info("metrics", "url", "http://"+ms.Addr.String()+"/metrics")
	}
	if err := s.Serve(ctx); err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck serve: %v\n", err)
		return 1
	}
	return 0
}

// Check validates the set-up without serving: the keys file (already read
// by New), the host key, and for each bound profile that its token can be
// read and is accepted by whoami. It prints one line per item and returns
// 0 only when everything passed. Skipped key lines are warnings, as they
// are to serve itself: a file with one usable key serves (New refuses a
// file with none), so the unit's ExecStartPre must not stop it.
func (s *Server) Check(ctx context.Context, w io.Writer) int {
	failed := false
	report := func(ok bool, format string, a ...any) {
		mark := "ok  "
		if !ok {
			mark, failed = "FAIL", true
		}
		fmt.Fprintf(w, "%s %s\n", mark, fmt.Sprintf(format, a...))
	}
	report(len(s.keys.List) > 0, "authorized keys %s: %s, %s skipped", s.cfg.AuthorizedKeys, plural.Count(len(s.keys.List), "key"), plural.Count(len(s.keys.Problems), "line"))
	for _, p := range s.keys.Problems {
		fmt.Fprintf(w, "warn %s\n", p)
	}
	if _, err := os.Stat(s.cfg.HostKey); errors.Is(err, fs.ErrNotExist) {
		report(true, "host key %s: not there yet; generated on first start", s.cfg.HostKey)
	} else if signer, _, err := HostKey(s.cfg.HostKey); err != nil {
		report(false, "host key: %v", err)
	} else {
		report(true, "host key %s: %s", s.cfg.HostKey, gossh.FingerprintSHA256(signer.PublicKey()))
	}
	for _, name := range s.keys.Profiles() {
		b, err := s.backendFor(name)
		if err != nil {
			report(false, "profile %s: %v", name, err)
			continue
		}
		r, err := b.account.Source.Resolve(ctx)
		if err != nil {
			report(false, "profile %s: %v", name, err)
			continue
		}
		who, err := b.client.WhoAmI(ctx)
		if err != nil {
			// which failure: only a 401 or 403 is the token's (api.CheckFailure)
			report(false, "profile %s, token from %s: %s: %v", name, r.Source.Describe(), api.CheckFailure(err), err)
			continue
		}
		report(true, "profile %s: token from %s accepted (%s, workspace %s)", name, r.Source.Describe(), sanitize.Line(who.Email), sanitize.Line(who.WorkspaceName))
	}
	if failed {
		return 1
	}
	return 0
}

// serveFlags merges serve's own console flags (theme, stuck-after: only
// when typed, so a bound profile's settings fill in the rest) with the
// global ones: where login sessions connect, and every session's timeout
// and max-rate.
func serveFlags(own, global account.Flags, given func(string) bool) account.Flags {
	f := global
	f.Profile = "" // a session's profile is its key's binding
	if f.BaseURL != "" {
		f.Region = "" // as before: a base URL wins over a region, not an error at the first login
	}
	if given("theme") {
		f.Theme = own.Theme
	}
	if given("stuck-after") {
		f.StuckAfter = own.StuckAfter
	}
	return f
}
