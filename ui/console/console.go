// Package console assembles one console program: a lipgloss renderer for
// that program's output, its theme, the key map, the routes and the root
// model. Everything is built per program, so a local terminal and each SSH
// session get their own colours and state.
package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/accessview"
	"github.com/vaultdeck/vaultdeck/ui/activityview"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/auditview"
	"github.com/vaultdeck/vaultdeck/ui/filestatusview"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/liblog"
	"github.com/vaultdeck/vaultdeck/ui/mattersview"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/personview"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/receiptsview"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/uploadview"
)

// Options describe one console program.
type Options struct {
	Backend page.Backend
	Cache   page.Cache // optional: responses kept between visits
	// Conn is where and as whom the console talks (profile, endpoint,
	// workspace, warning, session), built once by the caller.
	Conn *account.Conn
	// Journal is the upload journal, kept for Conn.DataProfile (optional).
	Journal *store.Store
	// Receipts is where :matters keeps its deletion receipts (optional).
	Receipts *store.Store
	// Access, when set, holds the access review's snapshots of
	// Conn.DataProfile (serve: every session reads the shared crawl's);
	// otherwise the Journal's database does.
	Access access.Snapshots

	ReadOnly bool
	// ReadOnlyWhy is what the gated mutating keys say ("" = the key map's
	// "this session is read-only").
	ReadOnlyWhy string
	// Jobs are the write jobs the session may run (ClientJobs); nil: none,
	// as in serve. A read-only session is not handed them whatever is set.
	Jobs *page.Jobs
	// Chores are the local jobs (audit sync, access crawl) the console runs
	// itself where a shell cannot reach its data (the demo); nil: hints
	// give the shell command.
	Chores *page.Chores

	Theme   string // auto, dark, light, high-contrast, mono
	NoColor bool

	StuckAfter time.Duration // file-status threshold; 0 = 30 minutes
	// Excel: e writes Excel's CSV dialect (the profile's excel setting).
	Excel    bool
	Start    string // first route; "" = projects
	StartArg string

	Input  io.Reader // nil = stdin
	Output io.Writer // nil = stdout
	Getenv func(string) string
	// Renderer is the output's renderer when the caller knows the terminal
	// better than Output does (an SSH session: its TERM and environment);
	// nil = one made for the output.
	Renderer *lipgloss.Renderer
	// NoLocalFiles leaves out the views that read local files (upload,
	// matter files): over SSH the local file system is the server's.
	NoLocalFiles bool
	// Now is the views' clock; nil = time.Now. Tests pin it, so that ages
	// and countdowns on golden screens do not move.
	Now func() time.Time
	// Views are the saved views (:NAME opens one, V saves one); their
	// Save is nil where the session has no local files.
	Views SavedViews
	// Logs is the process's router of the libraries' log lines: while the
	// program runs they are shown on its status line (libraryLines), never
	// written over its screen. nil: not routed (tests, serve's sessions,
	// whose lines are serve's log).
	Logs *liblog.Router
	// AfterFirstFrame, when set, is called once the first frame has been
	// written (firstframe.go): the demo starts its simulator and store then.
	AfterFirstFrame func()

	// theme, when set, is the theme already built on Renderer (the demo
	// builds it while it sets up).
	theme themes.Theme
}

// Routes are the views reachable from the command line and from each other.
func Routes(stuckAfter time.Duration) []app.Route {
	return []app.Route{
		{Name: "projects", Aliases: []string{"p", "vault"}, Args: "[NAME]", Help: "the projects list", New: projectsview.New,
			Commands: account.RouteCommands("projects"), FromQuery: projectsview.FromQuery},
		{Name: "project", Args: "PROJECT-ID", Help: "one project (users, files)", New: projectview.New, Check: projectview.CheckID, FromRecord: projectview.Record,
			Commands: account.RouteCommands("project"), FromQuery: projectview.FromQuery},
		{Name: "bin", Aliases: []string{"recycle-bin", "recyclebin", "rb"}, Args: "[MATTER-UUID]", Help: "the recycle bin", Check: checkMatterArg, New: recyclebinview.New,
			Commands: account.RouteCommands("bin"), FromQuery: recyclebinview.FromQuery},
		{Name: "files", Aliases: []string{"status", "fs"}, Args: "[FILE-ID,…]", Help: "file status", Check: filestatusview.CheckArg, New: func(env page.Env, arg string) page.Page {
			return filestatusview.New(env, arg, filestatusview.Options{StuckAfter: stuckAfter})
		}, Commands: account.RouteCommands("files"), FromQuery: func(env page.Env, q page.Query) (page.Page, error) {
			return filestatusview.FromQuery(env, q, filestatusview.Options{StuckAfter: stuckAfter})
		}},
		{Name: "audit", Aliases: []string{"log"}, Args: "[DATE] [TYPE]", Help: "the audit log, newest first", New: auditview.New,
			Commands: account.RouteCommands("audit"), FromQuery: auditview.FromQuery},
		{Name: "upload", Aliases: []string{"up"}, Args: "PROJECT-ID", Help: "upload files to a project", New: uploadview.New},
		{Name: "activity", Aliases: []string{"stats"}, Args: "[AGE]", Help: "audit activity at a glance (mirror)", New: activityview.New,
			Commands: account.RouteCommands("activity"), FromQuery: activityview.FromQuery},
	}
}

// checkMatterArg refuses ":bin hello": the argument is a client-matter
// UUID, and one that is not would show the whole bin as if none was typed.
func checkMatterArg(arg string) error {
	if arg != "" && !api.IsUUID(arg) {
		return fmt.Errorf("%q is not a client-matter ID (a UUID like 123e4567-e89b-12d3-a456-426614174000)", ansi.Truncate(sanitize.Line(arg), 40, "…"))
	}
	return nil
}

// mattersRoute is ":matters"; its receipts are Options.Receipts.
func mattersRoute(o Options) app.Route {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	deps := mattersview.Deps{Profile: matters.ReceiptProfile(o.conn().Profile, getenv("VAULTDECK_TOKEN")), Store: o.Receipts}
	return app.Route{Name: "matters", Aliases: []string{"m", "client-matters"}, Args: "[FILE]", Help: "client matters", New: mattersview.Route(deps),
		Commands: account.RouteCommands("matters"), FromQuery: mattersview.FromQuery(deps)}
}

// accessRoute is ":access": the snapshots of the access review, read from
// Options.Access (serve's shared database) or the profile's own.
func accessRoute(o Options) app.Route {
	deps := accessview.Deps{Store: o.Access, Profile: o.conn().DataProfile}
	if deps.Store == nil && o.Journal != nil {
		deps.Store = o.Journal
	}
	return app.Route{Name: "access", Aliases: []string{"acl"}, Help: "access review: who reaches what", New: accessview.Route(deps), Check: accessview.Check,
		Commands: account.RouteCommands("access"), FromQuery: accessview.FromQuery(deps)}
}

// personRoute is ":person EMAIL": one person, whole, from the profile's
// database (its snapshots, response cache and audit mirror).
func personRoute(o Options) app.Route {
	deps := personview.Deps{Store: o.Journal, Profile: o.conn().DataProfile}
	return app.Route{Name: "person", Aliases: []string{"who"}, Args: "EMAIL", Help: "one person, whole",
		Check: personview.CheckArg, New: personview.Route(deps), Commands: account.RouteCommands("person"), FromQuery: personview.FromQuery(deps)}
}

// receiptsRoute is ":receipts [JOB]": the access jobs of the journal,
// each one's receipt, and its undo (U).
func receiptsRoute(o Options) app.Route {
	deps := receiptsview.Deps{}
	if o.Journal != nil {
		deps.Store = o.Journal
	}
	return app.Route{Name: "receipts", Args: "[JOB]", Help: "access jobs' receipts and undo",
		Check: receiptsview.Check, New: receiptsview.Route(deps), Commands: account.RouteCommands("receipts"), FromQuery: receiptsview.FromQuery(deps)}
}

func routes(o Options) []app.Route {
	all := append(Routes(o.StuckAfter), mattersRoute(o), accessRoute(o), personRoute(o), receiptsRoute(o))
	if !o.NoLocalFiles {
		return all
	}
	out := all[:0]
	for _, r := range all {
		if r.Name != "upload" && r.Name != "matters" {
			out = append(out, r)
		}
	}
	return out
}

// NewModel builds the root model for a program writing to out.
func NewModel(ctx context.Context, o Options, out io.Writer) (*app.Model, error) {
	o, err := prepare(o, out)
	if err != nil {
		return nil, err
	}
	return newModel(ctx, o, out)
}

// prepare does what building the model needs done first, and may fail:
// the backend and the theme's name are checked, the renderer made for out
// (unless o has one), and the terminal asked for its background where the
// theme will want it (lipgloss keeps the answer), so that newModel does
// no IO and has nothing left to fail on (Run builds it in Init: late.go).
func prepare(o Options, out io.Writer) (Options, error) {
	if o.Backend == nil {
		return o, errors.New("console: no backend")
	}
	o = withRenderer(o, out)
	if o.NoColor {
		return o, nil // mono, whatever the name
	}
	if err := themes.Check(o.Theme); err != nil {
		return o, err
	}
	if themes.AsksTerminal(o.Theme, o.NoColor) {
		o.Renderer.HasDarkBackground()
	}
	return o, nil
}

// withRenderer gives o its environment and its renderer for out, unless it
// has them, and settles NoColor.
func withRenderer(o Options, out io.Writer) Options {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Renderer == nil {
		o.Renderer = lipgloss.NewRenderer(out)
	}
	o.NoColor = o.NoColor || themes.NoColorFromEnv(o.Getenv)
	return o
}

// newModel builds the root model from prepared options.
func newModel(ctx context.Context, o Options, out io.Writer) (*app.Model, error) {
	getenv, renderer := o.Getenv, o.Renderer
	th := o.theme
	if th.Styles == nil {
		var err error
		if th, err = themes.New(renderer, o.Theme, o.NoColor); err != nil {
			return nil, err
		}
	}
	start := o.Start
	if start == "" {
		start = "projects"
	}
	// The one decision of what the session may do: the key map and the
	// jobs handed over both follow from it.
	sess := keys.Session{ReadOnly: o.ReadOnly, ReadOnlyWhy: o.ReadOnlyWhy, NoLocalFiles: o.NoLocalFiles, Jobs: o.Jobs != nil}
	var jobs *page.Jobs
	if sess.RunsJobs() {
		jobs = o.Jobs
	}
	views := o.Views.forApp()
	if o.NoLocalFiles {
		views.Save = nil // the file would be the server's
	}
	env := page.Env{
		Ctx:      ctx,
		Backend:  o.Backend,
		Theme:    th,
		Keys:     keys.NewSession(sess),
		ReadOnly: o.ReadOnly,
		Jobs:     jobs,
		Chores:   o.Chores,
		Cache:    o.Cache,
		Journal:  o.Journal,
		Conn:     o.conn(),
		Output:   out,
		IDs:      &page.IDs{},
		Now:      o.Now,
	}
	return app.New(env, app.Config{
		Routes:   routes(o),
		Start:    start,
		StartArg: o.StartArg,
		Getenv:   getenv,
		Views:    views,
		Excel:    o.Excel,
	}), nil
}

// ClientJobs hands a session the write jobs that send through c: uploads
// (api/upload) and matter runs (api/matters).
func ClientJobs(c *api.Client) *page.Jobs {
	return &page.Jobs{Upload: c, Matters: c, Files: c, Access: c}
}

// conn is the connection value; none given: an empty one, so that the
// pages always hold the same pointer.
func (o Options) conn() *account.Conn {
	if o.Conn == nil {
		return &account.Conn{}
	}
	return o.Conn
}

// Run runs the console until the user quits or ctx ends.
func Run(ctx context.Context, o Options) error {
	in, out := o.Input, o.Output
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	o, err := prepare(o, out)
	if err != nil {
		return err
	}
	model := out // the model's output is the terminal's, whatever wraps it below
	late := &lateModel{build: func() (tea.Model, error) { return newModel(ctx, o, model) }}
	var root tea.Model = late
	if o.AfterFirstFrame != nil {
		root, out = withFirstFrame(root, out, o.AfterFirstFrame)
	}
	// Mouse stays off: terminal selection keeps working, as users of k9s expect.
	// Signals are the process's (main cancels ctx on SIGINT, SIGTERM and
	// SIGHUP): Bubble Tea's own handler would catch SIGTERM too and then
	// block its shutdown forever, sending a QuitMsg to an event loop that
	// ctx had already stopped, so the demo's home was never removed.
	// 120 fps: a changed view reaches the screen up to 8 ms sooner than at
	// Bubble Tea's default 60 (the first frame included); frames are still
	// written only when the view changed.
	p := tea.NewProgram(root, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen(),
		tea.WithoutSignalHandler(), tea.WithFPS(120))
	if o.Logs != nil {
		line, stop := libraryLines(p)
		restore := o.Logs.Route(line, redactorOf(o.Backend))
		defer stop()
		defer restore()
	}
	_, err = p.Run()
	if late.err != nil {
		return late.err
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // interrupted by a signal: a normal way to leave
	}
	return err
}
