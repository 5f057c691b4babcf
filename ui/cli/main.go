// Package cli runs vaultdeck's headless commands: thin wrappers over the api
// package that print a table (or the API's own JSON with --json) and exit
// with a status a script can test.
package cli

import (
	"context"
	"io"
	"log/slog"
	"net/http"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/accountcmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/liblog"
	"github.com/vaultdeck/vaultdeck/ui/serve"
)

// Exit statuses, the same for every command (login, logout and profiles
// too): the printer's, which settles them.
const (
	ExitOK      = printer.ExitOK      // success
	ExitError   = printer.ExitError   // the command failed
	ExitUsage   = printer.ExitUsage   // the command line was wrong
	ExitPartial = printer.ExitPartial // the call succeeded but some items failed (e.g. not_found IDs)
	ExitAuth    = printer.ExitAuth    // the token was refused for good (audit follow past --auth-grace)
)

// Globals are the flags accepted before or after any subcommand that the
// console, the demo and serve are handed: --profile, --base-url, --region,
// --ca-file, --timeout and --max-rate, the command line's part of
// api/account's resolution (a zero field was not given). The output
// format's flags are the printer's (--json, --jsonl, --csv, --jq,
// --template), which no launcher reads.
type Globals struct {
	account.Flags
	Debug factory.Debug // --debug, --debug-file
}

// Env is everything Main touches of the outside world, so that tests run
// the command line against fakes: Account (stored
// profiles and the keyring) and the console, demo, simulator, serve and
// account funcs are set by Std for a real process. A nil one falls back to
// the environment, or to "not available in this build".
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string

	// Account opens the chosen profile ("" = VAULTDECK_PROFILE, else the
	// default) with its settings and token source (account.Open). nil: no
	// stored profiles; the token is read from VAULTDECK_TOKEN.
	Account func(profile string) (*account.Chosen, error)
	// OpenStore opens the local database (matter receipts). nil: the
	// matters commands say receipts are not available.
	OpenStore func() (*store.Store, error)

	// The parts a test may leave out (nil: "not available in this build"):
	// they need a terminal, a listening socket or the keyring.
	Console  func(ctx context.Context, g Globals, f ConsoleFlags) int // bare `vaultdeck`
	Demo     func(ctx context.Context, g Globals, f DemoFlags) int
	Sim      func(ctx context.Context, f sim.Flags, stdout, stderr io.Writer) int // on the printer's streams
	Serve    func(ctx context.Context, g Globals, f serve.Flags, given func(string) bool) int
	Login    func(ctx context.Context, o accountcmd.LoginOptions) int
	Logout   func(ctx context.Context, o accountcmd.LogoutOptions) int
	Profiles func(ctx context.Context, o accountcmd.ProfilesOptions) int

	// Journal opens the store holding the upload journal and names the
	// active profile. nil: upload commands are not available.
	Journal func(profile string) (*store.Store, string, error)

	// Ledger shares the request budget with every vaultdeck process on
	// this machine (the store's budget ledger). nil: this process's own.
	Ledger api.Ledger

	// Logs is where the libraries' log lines go (Std's, over stderr; a
	// command, the console and serve each route them while they run). nil:
	// a test's, which routes nothing.
	Logs *liblog.Router

	// Signals waits until the process's signal handling is in place
	// (main's: registering takes a round trip to the runtime's signal
	// thread per signal, so main makes it while the command line is read).
	// Main calls it once, before any command runs or writes. nil: nothing
	// to wait for.
	Signals func()

	// Optional plumbing, mostly for tests and for sharing with the console.
	Budgets    *api.Budgets
	Logger     *slog.Logger
	HTTPClient *http.Client
	Limits     api.Limits
	Clock      api.Clock
}

// deps are what the factory resolves from env.
func (e Env) deps() factory.Deps {
	return factory.Deps{Getenv: e.Getenv, Account: e.Account, OpenStore: e.OpenStore, Journal: e.Journal,
		Ledger: e.Ledger, Budgets: e.Budgets, Logger: e.Logger, HTTPClient: e.HTTPClient, Limits: e.Limits, Clock: e.Clock}
}

// tree is one invocation's command tree: the root command, the lazily
// built commands below it and the launchers, over the invocation's
// environment, printer and factory (the commands themselves live in their
// <noun>cmd packages).
type tree struct {
	env  Env
	orig Env // env as Main was given it (a saved view's command runs on it)
	g    Globals
	p    *printer.Printer
	f    *factory.Factory
}

// newTree is one invocation's tree over env: the printer owns its
// streams, the factory resolves from it.
func newTree(env Env) *tree {
	r := &tree{env: env, orig: env}
	r.p = printer.New(env.Stdin, env.Stdout, env.Stderr)
	r.f = factory.New(r.p, &r.g.Flags, env.deps())
	r.f.Debug = &r.g.Debug
	r.env.Stdout, r.env.Stderr = stdout{r.p}, r.p.Err()
	return r
}

// stdout is the printer's stdout, as the tree's own commands (completion,
// docs) write to it.
type stdout struct{ p *printer.Printer }

func (s stdout) Write(b []byte) (int, error) { return s.p.Out().Write(b) }

// WriteString spares io.WriteString a copy (an item's separator is one).
func (s stdout) WriteString(str string) (int, error) { return io.WriteString(s.p.Out(), str) }
func (s stdout) Flush() error                        { return s.p.Flush() }
func (s stdout) IsTerminal() bool                    { return s.p.StdoutIsTerminal() }
