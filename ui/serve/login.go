package serve

import (
	"context"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/console"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// login is the screen of a key bound to no profile: it asks for a token
// (never echoed), checks it with whoami, and then becomes the console. The
// token lives in this model and the session's client only; nothing writes
// it anywhere, and it is gone when the session ends.
type login struct {
	ctx  context.Context
	srv  *Server
	ss   *session
	opts console.Options
	th   themes.Theme

	input    widgets.Input
	checking bool
	errText  string
	size     tea.WindowSizeMsg

	console tea.Model // set once logged in; login then only forwards

	// bounded is the session's input while the prompt is up (nil in
	// tests): switched off once logged in, the console's own then.
	bounded *boundedInput
	// refused: input past PromptInputLimit was dropped; what was typed is
	// cleared and typing is ignored until enter, so a paste's part that
	// arrives after the refusal cannot become a token.
	refused bool
}

// inputRefused is the bounded input's word that it dropped input.
type inputRefused struct{}

type loginResult struct {
	account   *account.Resolved
	client    *api.SharedClient
	tok       string
	workspace string
	err       error
}

func newLogin(ctx context.Context, srv *Server, ss *session, o console.Options) (*login, error) {
	th, err := themeFor(o.Renderer, o)
	if err != nil {
		return nil, err
	}
	m := &login{ctx: ctx, srv: srv, ss: ss, opts: o, th: th}
	m.input = widgets.Input{Prompt: "API token: ", PromptStyle: th.Input, CursorStyle: th.TextCursor, CharLimit: 4096}
	m.input.Focus()
	return m, nil
}

func (m *login) Init() tea.Cmd { return nil }

func (m *login) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.console != nil {
		var cmd tea.Cmd
		m.console, cmd = m.console.Update(msg)
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.size = msg
	case inputRefused:
		m.input.SetValue("")
		m.refused = true
		m.errText = "That input was longer than " + plural.Count(PromptInputLimit, "byte") + ", which no token is: it was refused. Press enter, then paste the token alone."
		return m, nil
	case loginResult:
		m.checking = false
		if msg.err != nil {
			// which failure: only a 401 or 403 is the token's fault
			m.errText = api.CheckFailure(msg.err) + ": " + sanitize.Line(msg.err.Error())
			return m, nil
		}
		m.ss.setProfile("login")
		if m.bounded != nil {
			m.bounded.on.Store(false) // from now on, the console's pastes are bounded
		}
		cm, err := m.srv.loggedInConsole(m.ctx, m.ss, msg.account, msg.client, msg.tok, msg.workspace, m.opts)
		if err != nil {
			m.errText = sanitize.Line(err.Error())
			return m, nil
		}
		m.console = cm
		init := cm.Init()
		var sized tea.Cmd
		if m.size.Width > 0 {
			m.console, sized = m.console.Update(m.size)
		}
		return m, tea.Batch(init, sized)
	case tea.KeyMsg:
		switch msg.Type {
		case tea.KeyCtrlC, tea.KeyEsc, tea.KeyCtrlD:
			return m, tea.Quit
		case tea.KeyEnter:
			tok := strings.TrimSpace(m.input.Value())
			m.input.SetValue("")
			if m.refused { // the enter that ends a refused run submits nothing
				m.refused, m.errText = false, ""
				return m, nil
			}
			if tok == "" || m.checking {
				return m, nil
			}
			m.checking, m.errText = true, ""
			return m, m.check(tok)
		}
		if !m.checking && !m.refused {
			m.input.Update(msg)
		}
	}
	return m, nil
}

// check asks whoami with the token, in a command (no IO in Update).
func (m *login) check(tok string) tea.Cmd {
	srv, ctx := m.srv, m.ctx
	return func() tea.Msg {
		res, err := srv.loginAccount(tok)
		if err != nil {
			return loginResult{err: err}
		}
		c, err := srv.client(res)
		if err != nil {
			return loginResult{err: err}
		}
		who, err := c.WhoAmI(ctx)
		if err != nil {
			return loginResult{err: err}
		}
		return loginResult{account: res, client: c, tok: tok, workspace: who.WorkspaceName}
	}
}

func (m *login) View() string {
	if m.console != nil {
		return m.console.View()
	}
	th := m.th
	var b strings.Builder
	b.WriteString(th.Header.Render("vaultdeck") + " " + th.Badge.Render(sanitize.Line(m.ss.key.Label())) + " " +
		th.Muted.Render(loginEndpoint(m.srv.cfg)) + "\n\n")
	// Texts wrap at the window's width (at most 86 columns, to read well):
	// cut, "Paste an API token to use for th" lost its point at 80.
	width := 86
	if m.size.Width > 0 {
		width = min(width, m.size.Width)
	}
	wrap := func(s string) string { return ansi.Wordwrap(s, width, "") }
	b.WriteString(th.Title.Render("Log in") + "\n\n")
	b.WriteString(wrap("Your key is bound to no profile on this server. Paste an API token to use for this "+
		"session only: it is checked with whoami, kept in memory, and forgotten when you leave.") + "\n\n")
	// Neither the token nor its length is drawn (a bullet per character
	// would tell a shoulder-surfer how long it is): only that something
	// was typed, so a paste is seen to have arrived.
	hidden := widgets.Input{Prompt: m.input.Prompt, PromptStyle: th.Input, CursorStyle: th.TextCursor}
	if m.input.Value() != "" {
		hidden.SetValue("(hidden)")
	}
	hidden.Focus()
	b.WriteString(hidden.View() + "\n\n")
	switch {
	case m.checking:
		b.WriteString(th.Muted.Render("Checking the token…") + "\n")
	case m.errText != "":
		b.WriteString(th.Error.Render(wrap(m.errText)) + "\n")
	}
	b.WriteString(th.Muted.Render("enter log in · esc quit"))
	out := b.String()
	if m.size.Width > 0 {
		out = th.Renderer.NewStyle().MaxWidth(m.size.Width).Render(out)
	}
	return out
}

// loginAccount resolves a login session's account: its own token, where
// serve's flags say login sessions connect, with serve's typed settings.
func (s *Server) loginAccount(tok string) (*account.Resolved, error) {
	return account.Resolve(account.Request{Flags: s.cfg.Flags, Token: token.NewFixed(tok), Themes: themes.Names()})
}
