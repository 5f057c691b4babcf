package cli

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/account"
	"github.com/vaultdeck/vaultdeck/ui/console"
)

// cacheMaxAge is how long a cached response is kept (PruneCache at start).
const cacheMaxAge = 7 * 24 * time.Hour

// consoleFlags are the options of the console itself, shared by the bare
// `vaultdeck` and `vaultdeck demo`.
type consoleFlags struct {
	readOnly   bool
	theme      string
	noColor    bool
	stuckAfter time.Duration
	start      string
}

func (c *consoleFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.readOnly, "read-only", false, "bind no key that changes the workspace")
	fs.StringVar(&c.theme, "theme", "auto", fmt.Sprintf("colour theme: %v", themes.Names()))
	fs.BoolVar(&c.noColor, "no-color", false, "no colours (also when NO_COLOR is set)")
	durationFlag(fs, &c.stuckAfter, "stuck-after", 30*time.Minute, "mark a file stuck after this long in processing")
	fs.StringVar(&c.start, "open", "projects", "view to open first: projects, bin, files, audit")
}

// parse parses and checks the console's flags before anything is drawn or
// requested; a bad value is one line naming it, exit 2.
func (c *consoleFlags) parse(fs *flag.FlagSet, args []string, e Env, cmd string) (int, bool) {
	if code, ok := parseQuietly(fs, args, e.Stdout, e.Stderr, cmd); !ok {
		return code, false
	}
	if !slices.Contains(themes.Names(), c.theme) {
		return oneLineUsage(e.Stderr, cmd, usagef("there is no theme %q; choose one of %s", c.theme, strings.Join(themes.Names(), ", "))), false
	}
	if !slices.Contains(startViews(), c.start) {
		return oneLineUsage(e.Stderr, cmd, usagef("--open takes one of %s (got %q)", strings.Join(startViews(), ", "), c.start)), false
	}
	return 0, true
}

// applySettings fills in the profile's stored defaults (`vaultdeck config`)
// for the flags not given on the command line: flags win.
func (c *consoleFlags) applySettings(fs *flag.FlagSet, settings map[string]string) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if v := settings[settingTheme]; v != "" && !given["theme"] && slices.Contains(themes.Names(), v) {
		c.theme = v
	}
	if d := parseSettingDuration(settings, settingStuckAfter); d > 0 && !given["stuck-after"] {
		c.stuckAfter = d
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

func (c consoleFlags) options(e Env) console.Options {
	return console.Options{
		ReadOnly: c.readOnly, Theme: c.theme, NoColor: c.noColor, StuckAfter: c.stuckAfter, Start: c.start,
		Input: e.Stdin, Output: e.Stdout, Getenv: e.Getenv,
	}
}

func runConsole(ctx context.Context, e Env, s *processAccounts, g Globals, args []string) int {
	var cf consoleFlags
	fs := flag.NewFlagSet("vaultdeck", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	cf.register(fs)
	if code, ok := cf.parse(fs, args, e, "console"); !ok {
		return code
	}
	r := &runner{env: e, g: g, cmd: "console"}
	if err := needTerminal(e.Stdin, e.Stdout); err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck: %v\n", err)
		return ExitUsage
	}
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
	cf.applySettings(fs, s.settings)
	o := cf.options(e)
	o.Backend = c.Client
	o.Profile = c.Profile
	o.Region = c.Where
	o.ReadOnly = o.ReadOnly || c.ReadOnly
	// Resolve the token now, so the header can warn about plain-file storage
	// from the first frame and a missing token fails before the screen opens.
	if _, err := conn.Source.Resolve(ctx); err != nil {
		return r.fail(err)
	}
	if _, warning := conn.Source.Answered(); warning != "" {
		o.Warning = warning
	}
	st, err := account.OpenStore(s.acct)
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	// Before the screen opens (never in Update): responses older than a week
	// are no use as "cached 3 days ago" and only grow the file. A failure
	// costs nothing but space.
	_, _ = st.PruneCache(time.Now().Add(-cacheMaxAge))
	o.Cache = console.StoreCache{Store: st, Profile: conn.Profile.Name}
	o.Journal, o.JournalProfile = st, conn.Profile.Name
	if err := console.Run(ctx, o); err != nil {
		return r.fail(err)
	}
	return ExitOK
}

func runDemo(ctx context.Context, e Env, args []string) int {
	var cf consoleFlags
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	cf.register(fs)
	seed := fs.Int64("seed", sim.DefaultSeed, "simulator seed (the same as `vaultdeck sim`'s default)")
	scale := fs.String("scale", string(sim.ScaleSmall), "seed data size: small or large (100,000 entries)")
	noLimit := fs.Bool("no-rate-limit", false, "turn the simulator's per-minute limits off")
	if code, ok := cf.parse(fs, args, e, "demo"); !ok {
		return code
	}
	if *scale != string(sim.ScaleSmall) && *scale != string(sim.ScaleLarge) {
		return oneLineUsage(e.Stderr, "demo", usagef("--scale must be small or large (got %q)", *scale))
	}
	if err := needTerminal(e.Stdin, e.Stdout); err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck: %v\n", err)
		return ExitUsage
	}
	err := console.Demo(ctx, console.DemoOptions{
		Seed: *seed, Scale: sim.Scale(*scale), NoRateLimit: *noLimit, Console: cf.options(e),
	})
	if err != nil {
		fmt.Fprintf(e.Stderr, "vaultdeck demo: %v\n", err)
		return ExitError
	}
	return ExitOK
}
