package cli

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/account"
	"github.com/vaultdeck/vaultdeck/ui/console"
)

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
	fs.DurationVar(&c.stuckAfter, "stuck-after", 30*time.Minute, "mark a file stuck after this long in processing")
	fs.StringVar(&c.start, "open", "projects", "view to open first: projects, bin, files, audit")
}

func (c consoleFlags) options(e Env) console.Options {
	return console.Options{
		ReadOnly: c.readOnly, Theme: c.theme, NoColor: c.noColor, StuckAfter: c.stuckAfter, Start: c.start,
		Input: e.Stdin, Output: e.Stdout, Getenv: e.Getenv,
	}
}

func runConsole(ctx context.Context, e Env, s *stdSeams, g Globals, args []string) int {
	var cf consoleFlags
	fs := flag.NewFlagSet("vaultdeck", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	cf.register(fs)
	if err := fs.Parse(args); err != nil {
		return ExitUsage
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
	// the connection resolved (stdSeams resolves it once per process).
	conn, err := s.connect(g.Profile)
	if err != nil {
		return r.fail(err)
	}
	o := cf.options(e)
	o.Backend = c.Client
	o.Profile = c.Profile
	o.Region = c.Where
	o.ReadOnly = o.ReadOnly || conn.Profile.ReadOnly
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
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	if *scale != string(sim.ScaleSmall) && *scale != string(sim.ScaleLarge) {
		fmt.Fprintf(e.Stderr, "vaultdeck demo: --scale must be small or large, not %q\n", *scale)
		return ExitUsage
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
