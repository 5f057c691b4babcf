package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/themes"
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
// while parsing (exit 2, naming the value and the allowed ones).
func (c *ConsoleFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.BoolVar(&c.ReadOnly, "read-only", false, "bind no key that changes the workspace")
	c.Theme = "auto"
	fs.Var(enumFlag(&c.Theme, themes.Names()), "theme", "colour `THEME`: "+strings.Join(themes.Names(), ", "))
	fs.BoolVar(&c.NoColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	durationFlag(fs, &c.StuckAfter, "stuck-after", 30*time.Minute, "mark a file stuck after this long in processing")
	c.Start = "projects"
	fs.Var(enumFlag(&c.Start, startViews()), "open", "`VIEW` to open first: "+strings.Join(startViews(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("theme", fixed(themes.Names()))
	_ = cmd.RegisterFlagCompletionFunc("open", fixed(startViews()))
	c.given = fs.Changed
}

// applySettings fills in the profile's stored defaults (`vaultdeck config`)
// for the flags not given on the command line: flags win.
func (c *ConsoleFlags) applySettings(settings map[string]string) {
	given := c.given
	if given == nil {
		given = func(string) bool { return false }
	}
	if v := settings[settingTheme]; v != "" && !given("theme") && slices.Contains(themes.Names(), v) {
		c.Theme = v
	}
	if d := parseSettingDuration(settings, settingStuckAfter); d > 0 && !given("stuck-after") {
		c.StuckAfter = d
	}
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
		Input: e.Stdin, Output: e.Stdout, Getenv: e.Getenv,
	}
}

func runConsole(ctx context.Context, e Env, s *processAccounts, g Globals, cf ConsoleFlags) int {
	r := &runner{env: e, g: g, cmd: "console"}
	if err := needTerminal(e.Stdin, e.Stdout); err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck: %v\n", err)
		return ExitUsage
	}
	// A line on stderr would tear the console's screen; its writes wait
	// for a lock without saying so (the status line does not know yet).
	s.acct.Busy = nil
	c, err := r.connect()
	if err != nil {
		return r.fail(err)
	}
	// The token source, read-only flag and cache belong to the same profile
	// the connection resolved (processAccounts resolves it once per process).
	conn, err := s.connect(g.Profile)
	if err != nil {
		return r.fail(err)
	}
	cf.applySettings(s.settings)
	o := cf.options(e)
	o.Backend = c.Client
	o.Conn = &c.Conn // the one value: the header and the journal read it
	c.DataProfile = conn.Profile.Name
	o.ReadOnly = o.ReadOnly || c.ReadOnly
	// Resolve the token now, so the header can warn about plain-file storage
	// from the first frame and a missing token fails before the screen opens.
	if _, err := conn.Source.Resolve(ctx); err != nil {
		return r.fail(err)
	}
	if _, warning := conn.Source.Answered(); warning != "" {
		c.Warning = warning
	}
	st, err := openAccountStore(s.acct)
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	// Before the screen opens (never in Update): responses older than a week
	// are no use as "cached 3 days ago" and only grow the file. A failure
	// costs nothing but space.
	_, _ = st.PruneCache(time.Now().Add(-cacheMaxAge))
	o.Cache = console.StoreCache{Store: st, Profile: conn.Profile.Name}
	o.Journal, o.Receipts = st, st
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
