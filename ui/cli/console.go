package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/console"
)

// cacheMaxAge is how long a cached response is kept (PruneCache at start).
const cacheMaxAge = 7 * 24 * time.Hour

// ConsoleFlags are the options of the console itself, shared by the bare
// `vaultdeck` and `vaultdeck demo`.
type ConsoleFlags struct {
	ReadOnly   bool
	Theme      string
	NoColor    bool
	StuckAfter time.Duration
	Start      string
	// given names the flags typed on the command line: a profile's stored
	// defaults (`vaultdeck config`) fill in the others.
	given func(name string) bool
}

// register defines the console's flags; --theme and --open are checked
// while parsing (exit 2, naming the value and the allowed ones). profiled:
// a profile's settings stand behind the flags (not the demo's simulator).
func (c *ConsoleFlags) register(cmd *cobra.Command, profiled bool) {
	fs := cmd.Flags()
	fs.BoolVar(&c.ReadOnly, "read-only", false, "bind no key that changes the workspace")
	c.Theme = "auto"
	fs.Var(cmdutil.EnumFlag(&c.Theme, themes.Names()), "theme", "colour `THEME`: "+strings.Join(themes.Names(), ", "))
	fs.BoolVar(&c.NoColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	stuck := cmdutil.DurationFlag
	if profiled {
		stuck = cmdutil.SettingFlag
	}
	stuck(fs, &c.StuckAfter, "stuck-after", 30*time.Minute, "mark a file stuck after this long in processing")
	c.Start = "projects"
	views := startViews() // once: each builds every route (110 allocations)
	fs.Var(cmdutil.EnumFlag(&c.Start, views), "open", "`VIEW` to open first: "+strings.Join(views, ", "))
	_ = cmd.RegisterFlagCompletionFunc("theme", cmdutil.Fixed(themes.Names()))
	_ = cmd.RegisterFlagCompletionFunc("open", cmdutil.Fixed(views))
	c.given = fs.Changed
}

// addTo adds the console's flags typed on the command line to f: a
// profile's stored defaults (`vaultdeck config`) fill in the others when
// api/account resolves them.
func (c ConsoleFlags) addTo(f account.Flags) account.Flags {
	given := c.given
	if given == nil {
		given = func(string) bool { return false }
	}
	if given("theme") {
		f.Theme = c.Theme
	}
	if given("stuck-after") {
		f.StuckAfter = c.StuckAfter
	}
	f.ReadOnly = c.ReadOnly
	return f
}

// startViews are the views --open accepts: every route but the project
// page, which needs an ID.
func startViews() []string {
	var out []string
	for _, r := range console.Routes(0) {
		if r.Name != "project" {
			out = append(append(out, r.Name), r.Aliases...)
		}
	}
	return out
}

func (c ConsoleFlags) options(e Env) console.Options {
	return console.Options{
		ReadOnly: c.ReadOnly, Theme: c.Theme, NoColor: c.NoColor, StuckAfter: c.StuckAfter, Start: c.Start,
		Input: e.Stdin, Output: e.Stdout, Getenv: e.Getenv, Logs: e.Logs,
	}
}

func runConsole(ctx context.Context, e Env, s *processAccounts, g Globals, cf ConsoleFlags) int {
	r := newTree(e)
	r.g = g
	r.p.Start(ctx, "console")
	return r.p.Finish(r.console(ctx, e, s, cf))
}

func (r *tree) console(ctx context.Context, e Env, s *processAccounts, cf ConsoleFlags) int {
	if err := needTerminal(e.Stdin, e.Stdout); err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck: %v\n", err)
		return ExitUsage
	}
	// A line on stderr would tear the console's screen; its writes wait
	// for a lock without saying so (the status line does not know yet).
	s.acct.Busy = nil
	// The console's flags join the globals; api/account weighs them
	// against the environment and the profile's settings.
	flags := cf.addTo(r.g.Flags)
	c, err := r.f.ConnectWith(flags)
	if err != nil {
		return r.fail(err)
	}
	a := c.Account
	o := cf.options(e)
	o.Theme, o.StuckAfter, o.ReadOnly, o.Excel = a.Theme, a.StuckAfter, a.ReadOnly, a.Excel
	o.Backend = c.Client
	// The write jobs; the console drops them if the session is read-only.
	o.Jobs = console.ClientJobs(c.Client)
	o.Conn = c.Conn // the one value: the header and the journal read it
	// Resolve the token now, so the header can warn about plain-file storage
	// from the first frame and a missing token fails before the screen opens.
	if c.Conn.Warning, err = a.TokenWarning(ctx); err != nil {
		return r.fail(err)
	}
	st, err := s.acct.Account().OpenStore()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	// Before the screen opens (never in Update): responses older than a week
	// are no use as "cached 3 days ago" and only grow the file. A failure
	// costs nothing but space.
	_, _ = st.PruneCache(time.Now().Add(-cacheMaxAge))
	o.Cache = console.StoreCache{Store: st, Profile: a.DataProfile}
	o.Journal, o.Receipts = st, st
	// The saved views are read before the screen opens: a mistake in the
	// file is one line naming it, where the person can fix it.
	if o.Views, err = consoleViews(r.orig); err != nil {
		return r.fail(err)
	}
	if err := console.Run(ctx, o); err != nil {
		return r.fail(err)
	}
	return ExitOK
}

// DemoFlags are `vaultdeck demo`'s: the console's and the simulator's seed.
type DemoFlags struct {
	Console     ConsoleFlags
	Seed        int64
	Scale       string
	NoRateLimit bool
}

func runDemo(ctx context.Context, e Env, f DemoFlags) int {
	if err := needTerminal(e.Stdin, e.Stdout); err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck: %v\n", err)
		return ExitUsage
	}
	err := console.Demo(ctx, console.DemoOptions{
		Seed: f.Seed, Scale: sim.Scale(f.Scale), NoRateLimit: f.NoRateLimit, Console: f.Console.options(e),
	})
	if err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck demo: %v\n", err)
		return ExitError
	}
	return ExitOK
}
