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
	"github.com/vaultdeck/vaultdeck/ui/serve"
)

// Exit statuses, the same for every command (login, logout and profiles
// too).
const (
	ExitOK      = 0 // success
	ExitError   = 1 // the command failed
	ExitUsage   = 2 // the command line was wrong
	ExitPartial = 3 // the call succeeded but some items failed (e.g. not_found IDs)
)

// Globals are the flags accepted before or after any subcommand.
type Globals struct {
	// Flags are --profile, --base-url, --region, --ca-file, --timeout and
	// --max-rate: the command line's part of api/account's resolution
	// (a zero field was not given).
	account.Flags
	JSON  bool
	JSONL bool // --jsonl: listings as JSON Lines, one item a line
	CSV   bool // --csv: listings as CSV (a header row; widgets.CSV's quoting and formula neutralising)
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
	Sim      func(ctx context.Context, f sim.Flags) int
	Serve    func(ctx context.Context, g Globals, f serve.Flags, given func(string) bool) int
	Login    func(ctx context.Context, o loginOptions) int
	Logout   func(ctx context.Context, o logoutOptions) int
	Profiles func(ctx context.Context, o profilesOptions) int

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

// runner carries one invocation's environment and global flags.
type runner struct {
	env  Env
	g    Globals
	cmd  string
	code int // the exit status the command's RunE left
	// flush empties the output buffers and redacting writers (guard);
	// rawOut and rawErr are the streams they wrap (terminal checks, and the
	// progress line, which is the program's own text).
	flush          []func() error
	rawOut, rawErr io.Writer

	shape *shaper // --jq or --template (shape.go); nil: JSON as sent

	conn    *Connection // resolved once by connect
	connErr error
}
