// Package cli runs vaultdeck's headless commands: thin wrappers over the api
// package that print a table (or the API's own JSON with --json) and exit
// with a status a script can test.
package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/account"
)

// Exit statuses.
// The account commands (login, logout, profiles) return the same codes:
// ui/account defines the shared ones, this package adds ExitPartial.
const (
	ExitOK      = account.ExitOK    // success
	ExitError   = account.ExitError // the command failed
	ExitUsage   = account.ExitUsage // the command line was wrong
	ExitPartial = 3                 // the call succeeded but some items failed (e.g. not_found IDs)
)

// Globals are the flags accepted before or after any subcommand.
type Globals struct {
	BaseURL string
	Region  string
	CAFile  string
	Profile string
	JSON    bool
	JSONL   bool // --jsonl: listings as JSON Lines, one item a line
	CSV     bool // --csv: listings as CSV (a header row; widgets.CSV's quoting and formula neutralising)
	// Timeout is --timeout: how long to wait for the service's first byte
	// (0: the profile's setting, else the default).
	Timeout time.Duration
	// MaxRate is --max-rate: vaultdeck's cap below the service's limits
	// (maxrate.go); unset: the profile's setting, else the limits.
	MaxRate maxRate
}

// Profile is what a stored profile contributes; flags and environment win.
type Profile struct {
	Name    string
	Stored  bool // a saved profile; false for the stand-in used with VAULTDECK_TOKEN alone
	BaseURL string
	Region  string
	CAFile  string
	Timeout time.Duration // the profile's first-byte timeout; 0: the default
	MaxRate maxRate       // the profile's max-rate setting; zero: none
	// ReadOnly: the profile was stored read-only (login --read-only or
	// `config set read-only true`); commands that change the workspace refuse.
	ReadOnly bool
}

// Command is a subcommand given to Main through Env rather than called
// directly (console, simulator, demo, account management): each pulls in
// a large part of the program, and tests of the command line replace it.
type Command func(ctx context.Context, g Globals, args []string) int

// Env is everything Main touches of the outside world, so that tests run
// the command line against fakes: TokenSource + ResolveProfile (stored
// profiles and the keyring) and the Command funcs are set by Std for a real
// process. A nil one falls back to the environment, or to "not available in
// this build".
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string

	// TokenSource returns the token source of a profile ("" = default).
	// nil: the token is read from VAULTDECK_TOKEN.
	TokenSource func(profile string) (api.TokenSource, error)
	// ResolveProfile returns a stored profile's settings. nil: none.
	ResolveProfile func(profile string) (Profile, error)
	// OpenStore opens the local database (matter receipts). nil: the
	// matters commands say receipts are not available.
	OpenStore func() (*store.Store, error)

	Console  Command // bare `vaultdeck`
	Sim      Command // `vaultdeck sim ...`
	Demo     Command
	Serve    Command
	Login    Command
	Logout   Command
	Profiles Command

	// Journal opens the store holding the upload journal and names the
	// active profile. nil: upload commands are not available.
	Journal func(profile string) (*store.Store, string, error)

	// Ledger shares the request budget with every vaultdeck process on
	// this machine (the store's budget ledger). nil: this process's own.
	Ledger api.Ledger

	// Optional plumbing, mostly for tests and for sharing with the console.
	Budgets    *api.Budgets
	Logger     *slog.Logger
	HTTPClient *http.Client
	Limits     api.Limits
	Clock      api.Clock
}

// command is one row of the dispatch table.
type command struct {
	name, args, summary string
	run                 func(r *runner, ctx context.Context, args []string) int
}

// commands is the single dispatch table. Built per call: no package state.
func commands() []command {
	return []command{
		{"projects", "[--name S]", "list the workspace's vault projects", (*runner).projects},
		{"users", "PROJECT_ID", "list users with access to a project", (*runner).users},
		{"files", "PROJECT_ID [--status S[,S]]", "list a project's files", (*runner).files},
		{"status", "FILE_ID... | - [--watch] | --journal", "show file details and processing status (IDs as arguments, comma lists, or one per line on stdin with -; --journal: every unfinished upload)", (*runner).status},
		{"recycle-bin", "[--name S] [--client-matter UUID]", "list deleted projects awaiting purge", (*runner).recycleBin},
		{"audit", "[sync|follow] [--since T] [--user EMAIL] ...", "the audit log: query it (from the local mirror where it reaches), sync the mirror, follow it as JSON Lines", (*runner).auditCommand},
		{"upload", "PROJECT_ID PATH... [--mode M]", "upload files and folders, journaled (--resume finishes interrupted uploads)", (*runner).upload},
		{"uploads", "", "list the upload journal's runs and their state", (*runner).uploads},
		{"whoami", "", "show the account behind the token", (*runner).whoami},
		{"access", "crawl|user|project|diff|snapshots ...", "access review: crawl every project's users into a snapshot, then ask who reaches what and what changed", (*runner).access},
		{"matters", "delete|receipts|receipt|restore ...", "batch-delete client matters from a CSV/TSV file, with receipts and restore", (*runner).matters},
		{"login", "[--profile P]", "store a token for a profile", injected(func(e Env) Command { return e.Login })},
		{"logout", "[--profile P]", "forget a profile's token", injected(func(e Env) Command { return e.Logout })},
		{"profiles", "", "list stored profiles", injected(func(e Env) Command { return e.Profiles })},
		{"sim", "[flags]", "run the local API simulator", injected(func(e Env) Command { return e.Sim })},
		{"demo", "", "open the console against a built-in simulator", injected(func(e Env) Command { return e.Demo })},
		{"serve", "--authorized-keys FILE [flags]", "serve the console over SSH (public keys only)", injected(func(e Env) Command { return e.Serve })},
		{"config", "get [KEY] | set KEY VALUE | unset KEY", "per-profile defaults: theme, stuck-after, read-only, timeout", (*runner).config},
		{"completion", "bash|zsh|fish", "print a shell completion script (commands, flags, profile names)", (*runner).completion},
		{"version", "", "print the version and VCS revision of this build (--json too)", (*runner).version},
		{"help", "[COMMAND]", "show this help", (*runner).help},
	}
}

// injected adapts a Command that the process wires in through Env
// (console, simulator, demo, account management).
func injected(pick func(Env) Command) func(r *runner, ctx context.Context, args []string) int {
	return func(r *runner, ctx context.Context, args []string) int {
		cmd := pick(r.env)
		if cmd == nil {
			fmt.Fprintf(r.env.Stderr, "vaultdeck: %s: not available in this build\n", r.cmd)
			return ExitError
		}
		return cmd(ctx, r.g, args)
	}
}

// runner carries one invocation's environment and global flags.
type runner struct {
	env Env
	g   Globals
	cmd string
	// flush empties the output buffers and redacting writers (guard);
	// rawOut and rawErr are the streams they wrap (terminal checks, and the
	// progress line, which is the program's own text).
	flush          []func() error
	rawOut, rawErr io.Writer

	conn    *Connection // resolved once by connect
	connErr error
}

// Main runs the command line args (without the program name).
func Main(ctx context.Context, args []string, env Env) int {
	if env.Stdout == nil {
		env.Stdout = io.Discard
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if len(args) > 0 && args[0] == "__complete" {
		// The completion scripts' callback: its words are the user's
		// half-typed command line, global flags included, so they are
		// not parsed as this invocation's own.
		r := &runner{env: env, cmd: "__complete"}
		return r.complete(ctx, args[1:])
	}
	g, rest, err := extractGlobals(args)
	r := &runner{env: env, g: g}
	if err != nil {
		return r.usageError(err)
	}
	// The subcommand is the first remaining word; anything flag-like before
	// it is unknown (globals were already taken out).
	for i, a := range rest {
		if a == "-h" || a == "--help" || a == "-help" {
			r.printUsage(env.Stdout)
			return ExitOK
		}
		if a == "--version" || a == "-version" {
			r.cmd = "version"
			return r.version(ctx, nil)
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			// Flags that are not global, before any command, belong to the
			// console itself (vaultdeck --read-only --theme mono).
			return r.console(ctx, rest[i:])
		}
		r.cmd = a
		for _, c := range commands() {
			if c.name == a {
				code := c.run(r, ctx, rest[i+1:])
				return r.finish(code)
			}
		}
		return r.usageError(fmt.Errorf("unknown command %q", a))
	}
	return r.console(ctx, nil)
}

func (r *runner) console(ctx context.Context, args []string) int {
	if r.env.Console == nil {
		fmt.Fprintln(r.env.Stderr, "vaultdeck: the console is not available in this build; see `vaultdeck help`")
		return ExitError
	}
	if len(args) > 0 && args[0] != "-h" && args[0] != "--help" && !isConsoleFlag(args[0]) {
		name, _, _ := strings.Cut(strings.TrimLeft(args[0], "-"), "=")
		return r.usageError(fmt.Errorf("unknown flag --%s", name))
	}
	return r.env.Console(ctx, r.g, args)
}

// isConsoleFlag reports whether a names one of the console's own flags.
func isConsoleFlag(a string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	switch name {
	case "read-only", "theme", "no-color", "stuck-after", "open":
		return true
	}
	return false
}

// extractGlobals removes the global flags from anywhere in args, so that
// each subcommand's FlagSet sees only its own. Everything after "--" is
// left alone.
func extractGlobals(args []string) (Globals, []string, error) {
	var g Globals
	rest := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			rest = append(rest, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		var dst *string
		switch name {
		case "base-url":
			dst = &g.BaseURL
		case "region":
			dst = &g.Region
		case "ca-file":
			dst = &g.CAFile
		case "profile":
			dst = &g.Profile
		case "timeout":
			if !hasVal {
				if i+1 >= len(args) {
					return g, nil, fmt.Errorf("flag --timeout needs a value")
				}
				i++
				val = args[i]
			}
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return g, nil, fmt.Errorf("--timeout takes a positive duration such as 30s or 2m (got %q)", val)
			}
			g.Timeout = d
			continue
		case "csv":
			if hasVal {
				return g, nil, fmt.Errorf("--csv takes no value (got %q)", val)
			}
			g.CSV = true
			continue
		case "max-rate":
			if !hasVal {
				if i+1 >= len(args) {
					return g, nil, fmt.Errorf("flag --max-rate needs a value")
				}
				i++
				val = args[i]
			}
			m, err := parseMaxRate(val)
			if err != nil {
				return g, nil, fmt.Errorf("--%w", err)
			}
			g.MaxRate = m
			continue
		case "jsonl":
			if hasVal {
				return g, nil, fmt.Errorf("--jsonl takes no value (got %q)", val)
			}
			g.JSONL = true
			continue
		case "json":
			switch {
			case !hasVal || val == "true" || val == "1":
				g.JSON = true
			case val == "false" || val == "0":
				g.JSON = false
			default:
				return g, nil, fmt.Errorf("--json takes no value (got %q)", val)
			}
			continue
		default:
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return g, nil, fmt.Errorf("flag --%s needs a value", name)
			}
			i++
			val = args[i]
		}
		*dst = val
	}
	if g.CSV && (g.JSON || g.JSONL) {
		return g, nil, fmt.Errorf("--csv cannot be combined with --json or --jsonl: choose one output format")
	}
	return g, rest, nil
}

// usageError reports a wrong command line (unknown command, bad global
// flag) in one line naming it and pointing at `vaultdeck help` (exit 2).
func (r *runner) usageError(err error) int { return oneLineUsage(r.env.Stderr, "", err) }

func (r *runner) printUsage(w io.Writer) {
	fmt.Fprint(w, `Usage:
  vaultdeck [global flags] [console flags]  open the console
  vaultdeck [global flags] COMMAND [flags]

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %-36s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprint(w, `
Global flags (before or after the command):
  --region us|eu|au   regional service (default us)
  --base-url URL      custom base URL (https; http only to localhost)
  --ca-file FILE      extra PEM CA certificates to trust
  --profile NAME      stored profile to use
  --json              print the API's own JSON objects (listings: an array, one item a line)
  --jsonl             listings as JSON Lines: one item a line, nothing around them
  --csv               listings as CSV: a header row, then a record a row (not with --json/--jsonl)
  --timeout 30s       how long the service may stay silent, before answering or within an answer (default 30s)
                      (one whole answer may take 30 times it: 15m by default)
  --max-rate 80%      stay below the service's limits: a share of each (80%) or requests a minute (6)

Console flags (also for demo): --read-only, --theme auto|dark|light|high-contrast|mono,
  --no-color, --stuck-after 30m, --open projects|bin|files|audit
Demo flags: --seed N, --scale small|large, --no-rate-limit

Environment: VAULTDECK_TOKEN (API token), VAULTDECK_BASE_URL, VAULTDECK_REGION, VAULTDECK_CA_FILE.
Exit status: 0 success, 1 error, 2 usage, 3 some items failed.
`)
}

func (r *runner) help(_ context.Context, args []string) int {
	if len(args) > 0 {
		for _, c := range commands() {
			if c.name == args[0] {
				fmt.Fprintf(r.env.Stdout, "Usage: vaultdeck %s %s\n  %s\n", c.name, c.args, c.summary)
				return ExitOK
			}
		}
		return r.usageError(fmt.Errorf("unknown command %q", args[0]))
	}
	r.printUsage(r.env.Stdout)
	return ExitOK
}
