// Package factory hands a command what it works with (gh's
// cmdutil.Factory): the printer, and, resolved lazily and once per
// command, the account (api/account), the API client, the local store and
// the upload journal, and the clock. A command asks only for what it uses,
// so a command that sends nothing never resolves a token; tests build one
// over fakes.
package factory

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// Deps are the outside world a factory resolves from: the command line's
// Env, less the streams (the printer's) and the launchers.
type Deps struct {
	Getenv func(string) string
	// Account opens the chosen profile ("" = VAULTDECK_PROFILE, else the
	// default) with its settings and token source (account.Open). nil: no
	// stored profiles; the token is read from VAULTDECK_TOKEN.
	Account func(profile string) (*account.Chosen, error)
	// OpenStore opens the local database. nil: not available.
	OpenStore func() (*store.Store, error)
	// Journal opens the store holding the upload journal and names the
	// active profile. nil: not available.
	Journal func(profile string) (*store.Store, string, error)

	Ledger     api.Ledger
	Budgets    *api.Budgets
	Logger     *slog.Logger
	HTTPClient *http.Client
	Limits     api.Limits
	Clock      api.Clock // nil: the system's
}

// Factory is one command's supplier.
type Factory struct {
	IO *printer.Printer
	// Flags are the global flags as parsed (--profile, --base-url, ...):
	// the command line's part of api/account's resolution.
	Flags *account.Flags
	Deps

	// Debug is --debug and --debug-file as parsed (nil: off, unless
	// VAULTDECK_DEBUG).
	Debug *Debug

	conn    *Connection
	connErr error

	secret    api.Secret // the token, for the debug log's lines
	debugOnce sync.Once
	dlog      *debugLog
	dlogErr   error
}

// New is a factory over deps, printing through io; flags are filled in by
// the command line's parsing.
func New(io *printer.Printer, flags *account.Flags, deps Deps) *Factory {
	if deps.Getenv == nil {
		deps.Getenv = func(string) string { return "" }
	}
	return &Factory{IO: io, Flags: flags, Deps: deps}
}

// Connection is the one resolution of where and as whom vaultdeck talks:
// the client, the resolved account and its connection value (what the
// console is handed by pointer).
type Connection struct {
	Client  *api.Client
	Account *account.Resolved
	Conn    *account.Conn
}

// Connect resolves once per command: headless commands and the console use
// the same value, so what the header says is what the client talks to.
func (f *Factory) Connect() (*Connection, error) {
	if f.conn == nil && f.connErr == nil {
		f.conn, f.connErr = f.ConnectWith(*f.Flags)
	}
	return f.conn, f.connErr
}

// Client is the API client of the one connection.
func (f *Factory) Client() (*api.Client, error) {
	c, err := f.Connect()
	if err != nil {
		return nil, err
	}
	return c.Client, nil
}

// ConnectWith is account.Resolve on flags and the environment (the
// console adds its own flags to the globals).
func (f *Factory) ConnectWith(flags account.Flags) (*Connection, error) {
	var chosen *account.Chosen
	if f.Account != nil {
		c, err := f.Account(flags.Profile)
		if err != nil {
			if flags.Profile == "" {
				return nil, err
			}
			return nil, fmt.Errorf("profile %q: %w", flags.Profile, err)
		}
		chosen = c
	}
	if tok := strings.TrimSpace(f.Getenv("VAULTDECK_TOKEN")); tok != "" {
		f.tellSecret(tok) // it overrides every stored token
	}
	res, err := account.Resolve(account.Request{Flags: flags, Getenv: f.Getenv, Chosen: chosen, Themes: themes.Names()})
	if err != nil {
		return nil, err
	}
	// The printer redacts whatever token the client sends, from the
	// moment it is read: told here, not learnt from the client.
	res.Token = noted{res.Token, f.tellSecret}
	sh, err := f.Shared()
	if err != nil {
		return nil, err
	}
	client, err := res.Client(sh)
	if err != nil {
		return nil, err
	}
	return &Connection{Client: client, Account: res, Conn: res.Conn(client.Base())}, nil
}

// Shared is what every client of this command shares: the process's
// HTTP client, budgets, ledger and clock, the --debug log, and notices on
// stderr. `profiles --check` builds one client per profile on it.
func (f *Factory) Shared() (account.Shared, error) {
	sh := account.Shared{HTTPClient: f.HTTPClient, Budgets: f.Budgets, Ledger: f.Ledger,
		Logger: f.Logger, Limits: f.Limits, Clock: f.Clock}
	dl, err := f.debug()
	if err != nil {
		return sh, err
	}
	if dl != nil {
		sh.Logger, sh.WrapTransport = dl.logger, dl.wrap
	}
	// What the client did not do as the service or the budget's record
	// asked (a Retry-After past the maximum, times from the future) is one
	// line on stderr; the console owns the terminal, so it is left to the
	// log there.
	if cmd := f.IO.Command(); cmd != "console" {
		sh.Notice = func(s string) { fmt.Fprintf(f.IO.Err(), "vaultdeck %s: %s\n", cmd, s) }
	}
	return sh, nil
}

// TellSecret hands a token read outside Connect (`profiles --check`
// reads every profile's) to the printer's and the debug log's redaction.
func (f *Factory) TellSecret(tok string) { f.tellSecret(tok) }

// noted is a token source that tells the printer each token it yields.
type noted struct {
	api.TokenSource
	tell func(string)
}

func (n noted) Token(ctx context.Context) (string, error) {
	tok, err := n.TokenSource.Token(ctx)
	if err == nil {
		n.tell(tok)
	}
	return tok, err
}

// RefuseReadOnly is asked by every headless command that changes the
// workspace, before its first request: a read-only profile must not be
// able to do headless what its console hides. ok is false when the command
// must stop with code. A connection that cannot be resolved is left to the
// command's own Client() call, so its error reads as before.
func (f *Factory) RefuseReadOnly() (code int, ok bool) {
	c, err := f.Connect()
	if err != nil || !c.Account.ReadOnly {
		return printer.ExitOK, true
	}
	f.IO.Note("profile %q is read-only; this command changes the workspace", c.Conn.Profile)
	return printer.ExitUsage, false
}

// Store opens the local database; the caller closes it.
func (f *Factory) Store() (*store.Store, error) {
	if f.OpenStore == nil {
		return nil, errors.New("receipts are not available in this build")
	}
	return f.OpenStore()
}

// OpenJournal opens the store that holds the upload journal, with the name
// of the active profile (the journal is per profile); the caller closes it.
func (f *Factory) OpenJournal() (*store.Store, string, error) {
	if f.Journal == nil {
		return nil, "", errors.New("uploads need the local database for their journal, which this build does not provide")
	}
	return f.Journal(f.Flags.Profile)
}

// Now is the machine's time (the console's countdowns use the same), or
// the injected clock's.
func (f *Factory) Now() time.Time {
	if f.Clock != nil {
		return f.Clock.Now()
	}
	return time.Now()
}
