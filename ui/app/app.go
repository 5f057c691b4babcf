// Package app is the root model: a stack of pages with breadcrumbs, the
// header, the status line, and the global keys (help, command line, copy,
// back, quit). Views are reached through injected routes, so app imports
// no view: a view is added by registering its route where the console is
// assembled (ui/console), and the root model stays the same size.
package app

import (
	"os"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Route is a view reachable from the command line (":projects") and from
// page.Open messages.
type Route struct {
	Name    string
	Aliases []string
	// New builds the page; arg is the rest of the command line or Open.Arg.
	New func(env page.Env, arg string) page.Page
	// Args is what the command takes, shown after its name in help
	// ("[MATTER-UUID]", "PROJECT-ID"); Help is what it shows ("the recycle
	// bin"). Help lists the aliases beside them.
	Args, Help string
	// Check, when set, refuses an argument before the page opens (":project"
	// without a project ID would open a page about nothing).
	Check func(arg string) error
	// FromRecord, when set, builds the page from the record a page.Open
	// carries (the service's own, so Check does not apply); nil from it, or
	// no record, means New(arg).
	FromRecord func(env page.Env, record any) page.Page
	// Commands are the headless commands whose rows the route's page
	// shows (["recycle-bin"]; ["users"] and ["files"] for a project), and
	// FromQuery builds the page from one's query: how :NAME opens a saved
	// view (equivalent.go).
	Commands  [][]string
	FromQuery func(env page.Env, q page.Query) (page.Page, error)
}

// Config is what the root shows and can open.
// The header's profile, endpoint, workspace, warning and session come from
// the one connection value, page.Env.Conn.
type Config struct {
	Routes   []Route
	Start    string // route opened first
	StartArg string
	// ExportDir is where `e` writes CSV files; "" is the working directory.
	ExportDir string
	// Excel makes e write Excel's CSV dialect (a BOM, CRLF: what
	// --excel writes), the profile's excel setting.
	Excel bool
	// Getenv reads TMUX for the OSC 52 passthrough; nil means os.Getenv.
	// An SSH session passes the remote side's environment here.
	Getenv func(string) string
	// Views are the saved views (equivalent.go).
	Views SavedViews
}

// Model is the root tea.Model.
type Model struct {
	env   page.Env
	cfg   Config
	stack []page.Page

	width, height int
	status        string
	statusErr     bool
	statusOwner   page.Page // the page whose error the status line shows
	help          bool
	helpScroll    *widgets.Scroll // help scrolls: at 40x12 it is longer than the body
	cmdline       *widgets.CommandLine
	saving        *page.Query // the query the open name prompt saves (V)
	workspace     string
	tasks         tasks
	opened        map[page.Page]string // route and argument each page was opened with
	errs          []errorRecord        // the last errors, whole (errors.go)
	errPane       *widgets.Pane        // `!`: the last errors in a pane that scrolls
	overlayLine   bool                 // the status line is overlayKey's, which the next key takes
}

type whoamiMsg struct {
	who *api.WhoAmI
	err error
}

// New builds the root. env.IDs is filled in when nil.
func New(env page.Env, cfg Config) *Model {
	if env.IDs == nil {
		env.IDs = &page.IDs{}
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	if cfg.Views.Save == nil {
		// nowhere to keep a view (the demo, serve): V is not offered
		// (help, the command's pane) rather than offered to say so
		env.Keys.TurnOff(&env.Keys.SaveView, keys.WhyNoViews)
	}
	m := &Model{env: env, cfg: cfg}
	if env.Conn != nil {
		m.workspace = env.Conn.Workspace
	}
	m.tasks.spin = spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(env.Theme.Spinner))
	return m
}

// Init opens the start route and, when needed, asks who we are.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.workspace == "" && m.env.Backend != nil {
		be, ctx := m.env.Backend, m.env.Context()
		cmds = append(cmds, func() tea.Msg {
			who, err := be.WhoAmI(ctx)
			return whoamiMsg{who, err}
		})
	}
	if m.cfg.Start != "" {
		cmds = append(cmds, m.open(m.cfg.Start, m.cfg.StartArg))
	}
	return tea.Batch(cmds...)
}

// Top returns the page on top of the stack (nil when empty).
func (m *Model) Top() page.Page {
	if len(m.stack) == 0 {
		return nil
	}
	return m.stack[len(m.stack)-1]
}

// Update routes messages: keys to the top page (after global keys),
// view-scoped responses to their view wherever it is, the rest to all.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	before := len(m.statusLines())
	mm, cmd := m.update(msg)
	if len(m.statusLines()) != before {
		m.resize() // a status that wraps takes a line from the body, and gives it back
	}
	return mm, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.KeyMsg:
		return m, m.handleKeys(msg)
	case page.Push:
		return m, m.push(msg.Page)
	case page.Pop:
		return m, m.pop()
	case page.Close:
		return m, m.closePage(msg)
	case page.Open:
		return m, m.openMsg(msg)
	case page.StatusMsg:
		m.setStatus(msg)
		m.statusOwner = m.Top() // a page's error or notice, cleared by its next action (updateTop)
		return m, nil
	case page.StartTask:
		return m, m.startTask(msg)
	case viewSaved:
		m.viewSaved(msg)
		return m, nil
	case taskFinished:
		return m, m.finishTask(msg)
	case spinner.TickMsg:
		if msg.ID == m.tasks.spin.ID() {
			return m, m.tickTasks(msg)
		}
	case whoamiMsg:
		if msg.err == nil && msg.who != nil {
			m.workspace = msg.who.WorkspaceName
		}
		return m, nil // a failing whoami is not worth a status line; views report their own errors
	case page.Scoped:
		for i, p := range m.stack {
			if id, ok := p.(page.Identified); ok && id.ID() == msg.Target() {
				var cmd tea.Cmd
				m.stack[i], cmd = p.Update(msg)
				return m, cmd
			}
		}
		return m, nil // the view is gone: drop the response
	}
	// spinner ticks and other broadcasts: each page ignores what is not its own
	return m, m.broadcast(msg)
}

// resize gives every page the body area (it shrinks while task lines show).
func (m *Model) resize() {
	for _, p := range m.stack {
		p.SetSize(m.bodySize())
	}
	if m.errPane != nil {
		m.errPane.SetSize(m.bodySize())
	}
}

// inputFocused reports whether a text input has the keyboard: the command
// line or a page's filter or dialog.
func (m *Model) inputFocused() bool {
	if m.cmdline != nil {
		return true
	}
	c, ok := m.Top().(page.InputCapturer)
	return ok && c.CapturesInput()
}

// handleKeys splits a burst into keys. Bubble Tea v1 delivers the runes of
// one terminal read (fast typing, key repeat over SSH, tmux send-keys) as
// ONE KeyMsg; matched against bindings as a whole it would match nothing.
// While no text input has focus each rune is handled as if typed alone, and
// as soon as one of them focuses an input (":" or "/"), the rest of the
// burst goes to that input whole, as a text input expects. A bracketed
// paste is text, never commands: it goes whole to a focused input and is
// dropped otherwise (pasting "qqq" must not quit).
//
// Esc followed at once by a key (fast typing over SSH, where Esc and q
// share one read) arrives as Alt+key: unless the key map binds that alt
// key, it is handled here, once for every view, as the Esc and the key.
func (m *Model) handleKeys(msg tea.KeyMsg) tea.Cmd {
	if msg.Alt && !msg.Paste && !m.env.Keys.Binds(msg.String()) {
		esc := m.handleKey(tea.KeyMsg{Type: tea.KeyEsc})
		msg.Alt = false
		return tea.Batch(esc, m.handleKeys(msg))
	}
	if msg.Type != tea.KeyRunes || (len(msg.Runes) <= 1 && !msg.Paste) {
		return m.handleKey(msg)
	}
	if msg.Paste {
		if m.inputFocused() {
			return m.handleKey(msg)
		}
		return nil
	}
	var cmds []tea.Cmd
	for i, r := range msg.Runes {
		if m.inputFocused() {
			rest := msg
			rest.Runes = msg.Runes[i:]
			cmds = append(cmds, m.handleKey(rest))
			break
		}
		one := msg
		one.Runes = []rune{r}
		cmds = append(cmds, m.handleKey(one))
	}
	// Batch, not Sequence: a sequence would wait for each key's loads and
	// ticks before running the next key's commands.
	return tea.Batch(cmds...)
}

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	if msg.Type == tea.KeyCtrlC {
		return m.quit()
	}
	if m.cmdline != nil {
		line, done, cancelled := m.cmdline.Update(msg)
		if !done {
			return nil
		}
		m.cmdline = nil
		saving := m.saving
		m.saving = nil
		if cancelled || line == "" {
			return nil
		}
		if saving != nil {
			return m.saveView(line, *saving)
		}
		return m.runCommand(line)
	}
	if m.errPane != nil {
		m.overlayKey(msg, "the last errors are open")
		if key.Matches(msg, k.Back, k.Quit, k.Errors) {
			m.errPane = nil
		} else {
			m.errPane.Update(msg)
		}
		return nil
	}
	if m.help {
		m.overlayKey(msg, "the help is open")
		if key.Matches(msg, k.Help, k.Back, k.Quit) {
			m.help = false
		} else if m.helpScroll != nil {
			m.helpScroll.Update(msg)
		}
		return nil
	}
	top := m.Top()
	if c, ok := top.(page.InputCapturer); ok && c.CapturesInput() {
		return m.updateTop(msg)
	}
	if m.status != "" && !m.statusErr && m.statusOwner == top && top != nil && !key.Matches(msg, k.Quit) {
		// a notice is news of the key that caused it: a key the root
		// takes (:, V, ?) takes it too, as the page's keys do (updateTop);
		// q leaves it on the last frame
		m.status, m.statusOwner = "", nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Errors):
		m.openErrors()
		return nil
	case key.Matches(msg, k.Help):
		m.help = true
		m.helpScroll = widgets.NewScroll(m.env.Theme, k)
		return nil
	case key.Matches(msg, k.Command):
		m.cmdline = widgets.NewCommandLine(m.env.Theme, m.commands())
		return nil
	case key.Matches(msg, k.Copy):
		return m.copySelected()
	case key.Matches(msg, k.Show):
		return m.showSelected()
	case key.Matches(msg, k.Export):
		return m.exportTop()
	case key.Matches(msg, k.RunHere):
		return m.runChore(top)
	case key.Matches(msg, k.Equivalent):
		return m.showEquivalent()
	case key.Matches(msg, k.SaveView):
		return m.askViewName()
	case key.Matches(msg, k.Back):
		if e, ok := top.(page.EscHandler); ok && e.WantsEsc() {
			return m.updateTop(msg)
		}
		return m.pop()
	}
	line, toPage := k.Answer(msg.String(), m.here(top))
	var cmd tea.Cmd
	if toPage {
		cmd = m.updateTop(msg)
	}
	if line != "" {
		m.flash(line)
	}
	return cmd
}

// updateTop gives a key to the page on top. An error that page reported
// belongs to the state that caused it: once a key acts on the page (a
// sort, a filter, a clear, an input closed), that state is gone and so is
// the error (`!` keeps it). Keys typed into an input still open (the value
// being corrected) leave it in view.
func (m *Model) updateTop(msg tea.Msg) tea.Cmd {
	if len(m.stack) == 0 {
		return nil
	}
	i := len(m.stack) - 1
	typing := capturing(m.stack[i])
	var cmd tea.Cmd
	m.stack[i], cmd = m.stack[i].Update(msg)
	// A notice ("wrote 11 rows to …", "copied") is news of the key that
	// caused it and leaves at the next key, giving the footer back to the
	// keys that act; only a key, never a broadcast, takes it.
	_, isKey := msg.(tea.KeyMsg)
	if m.status != "" && (m.statusErr || isKey) && m.statusOwner == m.stack[i] && !(typing && capturing(m.stack[i])) {
		m.status, m.statusErr, m.statusOwner = "", false, nil
	}
	return cmd
}

func capturing(p page.Page) bool {
	c, ok := p.(page.InputCapturer)
	return ok && c.CapturesInput()
}

func (m *Model) setStatus(s page.StatusMsg) {
	m.statusOwner = nil // the root's own errors (a task's) stay until replaced
	if s.Err != nil {
		// api errors may quote the server; keep the terminal inert
		m.status, m.statusErr = sanitize.Line(s.Err.Error()), true
		m.recordError(s.Err)
		return
	}
	m.status, m.statusErr = sanitize.Line(s.Text), false
}
