// Package accountcmd is the account commands: `vaultdeck login`, `logout`,
// `profiles`, `config` and `whoami`. Selecting profiles, their tokens and
// settings is api/account's; what the first three read and write of the
// terminal is here (Env).
package accountcmd

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"

	"golang.org/x/term"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
)

// Env is everything login, logout and profiles touch outside themselves,
// so tests and `vaultdeck demo` can run them against a temporary home and
// a fake keyring.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads the environment (VAULTDECK_HOME, VAULTDECK_PROFILE,
	// VAULTDECK_TOKEN, XDG_*); nil means an empty environment.
	Getenv func(string) string
	// StdinIsTerminal reports whether Stdin is a terminal; nil means "ask the
	// OS when Stdin is an *os.File, else no".
	StdinIsTerminal func() bool
	// ReadPassword reads one line from the terminal without echo; nil means
	// term.ReadPassword on Stdin's file descriptor.
	ReadPassword func() ([]byte, error)
	// Keyring is the secret store; nil means the OS keyring.
	Keyring token.Keyring
	// Verify checks a token before it is saved, so a mistyped token is
	// refused at login rather than at the first command, and returns who it
	// belongs to, for the confirmation. It is a func (the command line
	// passes the API's whoami) so that tests check login without a server.
	Verify func(ctx context.Context, p store.Profile, tok string) (Verified, error)
	// Logger receives diagnostics (never tokens); nil discards them.
	Logger *slog.Logger
	// Busy is told when a write waits for another process's lock on the
	// database (store.Options.Busy); nil says nothing.
	Busy func(store.BusyWait)
}

// Streams are the invocation's stdout and stderr as its printer checks
// them; the commands write there rather than to Env's, which are the
// process's own (Std builds Env before any printer exists).
type Streams struct{ Out, Err io.Writer }

// on is e writing to s (those of s that are set).
func (e Env) on(s Streams) Env {
	if s.Out != nil {
		e.Stdout = s.Out
	}
	if s.Err != nil {
		e.Stderr = s.Err
	}
	return e
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func (e Env) stdinIsTerminal() bool {
	if e.StdinIsTerminal != nil {
		return e.StdinIsTerminal()
	}
	f, ok := e.Stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (e Env) readPassword() ([]byte, error) {
	if e.ReadPassword != nil {
		return e.ReadPassword()
	}
	f, ok := e.Stdin.(*os.File)
	if !ok {
		return nil, errors.New("standard input is not a terminal")
	}
	return term.ReadPassword(int(f.Fd()))
}

// Account is what api/account reads of env.
func (e Env) Account() account.Env {
	return account.Env{Getenv: e.Getenv, Keyring: e.Keyring, Logger: e.Logger, Busy: e.Busy}
}

// Verified is what login's check learnt of a token: who it is, for the
// line login prints, and the workspace whoami places it in, which the
// profile remembers (a token later placed in another is refused).
type Verified struct {
	Who                        string
	WorkspaceID, WorkspaceName string
}
