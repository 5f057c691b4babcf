package cli

// The accounts: `vaultdeck login`, `logout` and `profiles` (their flags are
// cmd_login.go's), and the profile selection the console and the headless
// commands share.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"golang.org/x/term"

	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
)

// ProfileEnvVar selects a profile when --profile is not given.
const ProfileEnvVar = "VAULTDECK_PROFILE"

// accountEnv is everything the commands touch outside themselves, so tests and
// `vaultdeck demo` can run them against a temporary home and a fake keyring.
type accountEnv struct {
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
	Verify func(ctx context.Context, p store.Profile, tok string) (who string, err error)
	// Logger receives diagnostics (never tokens); nil discards them.
	Logger *slog.Logger
	// Busy is told when a write waits for another process's lock on the
	// database (store.Options.Busy); nil says nothing.
	Busy func(store.BusyWait)
}

func (e accountEnv) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func (e accountEnv) stdinIsTerminal() bool {
	if e.StdinIsTerminal != nil {
		return e.StdinIsTerminal()
	}
	f, ok := e.Stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (e accountEnv) readPassword() ([]byte, error) {
	if e.ReadPassword != nil {
		return e.ReadPassword()
	}
	f, ok := e.Stdin.(*os.File)
	if !ok {
		return nil, errors.New("standard input is not a terminal")
	}
	return term.ReadPassword(int(f.Fd()))
}

// accountPaths are the directories for env.
func accountPaths(env accountEnv) (store.Paths, error) { return store.DefaultPaths(env.Getenv) }

// openAccountStore opens the database for env.
func openAccountStore(env accountEnv) (*store.Store, error) {
	p, err := accountPaths(env)
	if err != nil {
		return nil, err
	}
	return store.OpenWith(p.Database(), store.Options{Busy: env.Busy})
}

// noProfileError says both ways to get going. It wraps the store's "not
// found" for errors.Is, but its text is only this sentence.
type noProfileError struct{ cause error }

func (e noProfileError) Unwrap() error { return e.cause }

func (noProfileError) Error() string {
	return "no profile exists yet: run `vaultdeck login` to store a token in the keyring, " +
		"or set VAULTDECK_TOKEN (with --region or --base-url) for this shell"
}

// How a profile was chosen, for messages.
const (
	ChosenByFlag    = "--profile"
	ChosenByEnv     = ProfileEnvVar
	ChosenByDefault = "default"
	ChosenByToken   = token.EnvVar // no profile saved; VAULTDECK_TOKEN alone
)

// selectProfile picks the profile: --profile, then VAULTDECK_PROFILE, then
// the default. With no profile saved but VAULTDECK_TOKEN set, it returns an
// unsaved profile named "default" for region us, so scripts can run with the
// variable alone. It reports how the choice was made.
func selectProfile(env accountEnv, st *store.Store, flag string) (store.Profile, string, error) {
	name, by := flag, ChosenByFlag
	if name == "" {
		name, by = env.getenv(ProfileEnvVar), ChosenByEnv
	}
	if name != "" {
		p, err := st.Profile(name)
		if errors.Is(err, store.ErrNotFound) {
			return store.Profile{}, by, fmt.Errorf("there is no profile named %q (chosen by %s); run `vaultdeck profiles` to list them or `vaultdeck login --profile %s` to create it: %w", name, by, name, err)
		}
		return p, by, err
	}
	p, err := st.DefaultProfile()
	if errors.Is(err, store.ErrNotFound) {
		if env.getenv(token.EnvVar) != "" {
			return store.Profile{Name: "default", Region: "us"}, ChosenByToken, nil
		}
		return store.Profile{}, ChosenByDefault, noProfileError{cause: err}
	}
	return p, ChosenByDefault, err
}

// newTokenSource builds the token source for a profile; the API client takes it
// as its api.TokenSource, and the console asks it (Answered) for the
// status-bar warning.
func newTokenSource(env accountEnv, p store.Profile) (*token.Source, error) {
	paths, err := accountPaths(env)
	if err != nil {
		return nil, err
	}
	return token.New(token.Options{
		Profile:   p.Name,
		Getenv:    env.Getenv,
		Keyring:   env.Keyring,
		Dir:       paths.Tokens,
		AllowFile: p.TokenStorage == store.StorageFile,
		Logger:    env.Logger,
	})
}

// profileConn is a chosen profile with its token source.
type profileConn struct {
	Profile store.Profile
	// ChosenBy says how the profile was picked (ChosenBy... constants).
	ChosenBy string
	Source   *token.Source
}

// connectProfile selects the profile and builds its token source: the one call
// the console and headless commands need before building the API client.
// The token itself is looked up lazily, on the first request.
func connectProfile(env accountEnv, st *store.Store, profileFlag string) (profileConn, error) {
	p, by, err := selectProfile(env, st, profileFlag)
	if err != nil {
		return profileConn{}, err
	}
	src, err := newTokenSource(env, p)
	if err != nil {
		return profileConn{}, err
	}
	return profileConn{Profile: p, ChosenBy: by, Source: src}, nil
}
