package serve

import (
	"cmp"
	"context"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"io"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	bm "github.com/charmbracelet/wish/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/console"
)

// sessionEnv reads the environment the SSH client sent (TERM, NO_COLOR,
// LANG…), never the server's.
func sessionEnv(sess ssh.Session) func(string) string {
	env := sess.Environ()
	return func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
}

// program builds the session's console program: its own renderer (the
// client's TERM, colour profile and NO_COLOR), theme, key map and routes,
// on the bound profile's shared client, or a login screen first.
func (s *Server) program(sess ssh.Session) *tea.Program {
	ss := s.lookup(sess)
	if ss == nil {
		return nil
	}
	ctx, cancel := context.WithCancel(sess.Context())
	// Every request this session's console (or its login screen) sends
	// is counted for its log line, in the clients' transport.
	ctx = countRequests(ctx, &ss.requests)
	// and every write it sends is recorded, naming its key (record.go)
	rec := &recorder{srv: s, ss: ss, osUser: s.osUser}
	ctx = withRecorder(ctx, rec)
	// and a write job it runs names its key in the job's receipt
	ctx = writejob.WithActorKey(ctx, ss.actor())
	ctx = withDebug(ctx, ss)
	ss.mu.Lock()
	ss.cancel = cancel
	ss.mu.Unlock()

	getenv := sessionEnv(sess)
	renderer := bm.MakeRenderer(sess)
	var out io.Writer = sess
	if tty := ptyTerminal(sess); tty != nil {
		out = tty // OSC 52 copies go the program's way, in order with its frames
	}
	base := console.Options{
		Theme:      cmp.Or(s.cfg.Flags.Theme, account.DefaultTheme),
		NoColor:    themes.NoColorFromEnv(getenv),
		StuckAfter: cmp.Or(s.cfg.Flags.StuckAfter, account.DefaultStuckAfter),
		// --allow-writes is the ceiling; under it, a key writes only when its
		// line says so (rights.go).
		ReadOnly:    !ss.mayWrite(s.cfg.AllowWrites),
		ReadOnlyWhy: ss.readOnlyWhy(s.cfg.AllowWrites),
		Output:      out,
		// The session's files would be the server's (its credentials among them).
		NoLocalFiles: true,
		Getenv:       getenv,
		Renderer:     renderer,
	}
	var model tea.Model
	var bounded *boundedInput // the session's input: the login screen's lines, the console's pastes, bounded
	if name := ss.key.Profile; name != "" {
		m, err := s.boundConsole(ctx, ss, name, base)
		if err != nil {
			ss.end(err.Error())
			cancel()
			return nil
		}
		model = m
		if tty := ptyTerminal(sess); tty != nil {
			bounded = newBoundedInput(tty, PromptInputLimit)
			bounded.on.Store(false) // the console's: its pastes are bounded
		}
	} else {
		lm, err := newLogin(ctx, s, ss, base)
		if err != nil {
			ss.end(err.Error())
			cancel()
			return nil
		}
		if tty := ptyTerminal(sess); tty != nil {
			bounded = newBoundedInput(tty, PromptInputLimit)
			lm.bounded = bounded
		}
		model = lm
	}
	activity := newActivity()
	// WithoutSignalHandler: the server's SIGINT/SIGTERM are the server's to
	// handle (drain). Left on, every session's program would catch them,
	// and one already told to quit would block its shutdown forever sending
	// the signal's message to an event loop that has stopped.
	opts := append(bm.MakeOptions(sess), tea.WithAltScreen(), tea.WithFilter(activity.filter), tea.WithoutSignalHandler())
	if bounded != nil {
		opts = append(opts, tea.WithInput(bounded)) // after MakeOptions': the last input wins
	}
	p := tea.NewProgram(model, opts...)
	if bounded != nil {
		// Called from the program's input reader: Send waits for the event
		// loop, which may be waiting on that reader, so it goes on its own.
		bounded.refused = func() { ss.refused.Add(1); go p.Send(inputRefused{}) }
	}
	ss.mu.Lock()
	ss.program = p
	ended := ss.reason != ""
	ss.mu.Unlock()
	if ended { // drained while the program was being built
		go p.Quit()
	}
	if s.cfg.IdleTimeout > 0 {
		go watchIdle(ctx, ss, activity, s.cfg.IdleTimeout)
	}
	return p
}

// boundConsole is the console of a key bound to a stored profile.
func (s *Server) boundConsole(ctx context.Context, ss *session, name string, o console.Options) (tea.Model, error) {
	o, err := s.boundOptions(ctx, ss, name, o)
	if err != nil {
		return nil, err
	}
	return console.NewModel(ctx, o, o.Output)
}

// boundOptions are the console options of a session bound to a stored
// profile: its client, cache and connection, and the settings its
// resolution weighed (serve's typed flags, then the profile's).
func (s *Server) boundOptions(ctx context.Context, ss *session, name string, o console.Options) (console.Options, error) {
	b, err := s.backendFor(name)
	if err != nil {
		return o, err
	}
	warning, err := b.account.TokenWarning(ctx)
	if err != nil {
		return o, err
	}
	o.Backend = b.client
	ss.client.Store(b.client)
	o.Cache = s.cacheFor(ss, name, "")
	o.Access = s.st // the snapshots of serve's scheduled crawl
	// The session's one connection value, built by account once.
	o.Conn = b.account.Conn(b.client.Base())
	o.Conn.Session, o.Conn.Warning = "key "+ss.key.Label(), warning
	o.ReadOnly = o.ReadOnly || b.account.ReadOnly
	o.Theme, o.StuckAfter = b.account.Theme, b.account.StuckAfter
	return o, nil
}

// loggedInConsole is the console of a session that logged in with its own
// token, kept in memory only, for this session only.
func (s *Server) loggedInConsole(ctx context.Context, ss *session, res *account.Resolved, c *api.SharedClient, tok, workspace string, o console.Options) (tea.Model, error) {
	o.Backend = c
	ss.client.Store(c)
	o.Cache = s.cacheFor(ss, "", tok)
	// No stored profile: the session's own token.
	o.Conn = res.Conn(c.Base())
	o.Conn.Workspace, o.Conn.Session = workspace, "key "+ss.key.Label()+" · session token"
	return console.NewModel(ctx, o, o.Output)
}

func loginEndpoint(cfg Config) string {
	switch {
	case cfg.Flags.BaseURL != "":
		return cfg.Flags.BaseURL
	case cfg.Flags.Region != "":
		return "region " + cfg.Flags.Region
	}
	return "region us"
}

// themeFor builds the login screen's theme on the session's renderer.
func themeFor(r *lipgloss.Renderer, o console.Options) (themes.Theme, error) {
	return themes.New(r, o.Theme, o.NoColor)
}
