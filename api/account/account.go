// Package account answers one question for every front end: which workspace,
// as whom, with which settings. It selects the stored profile (--profile,
// then VAULTDECK_PROFILE, then the default; VAULTDECK_TOKEN alone without
// any), builds its token source (the CLI's keyring or file, serve's systemd
// credential or file), keeps the per-profile settings, and resolves flags,
// environment, profile setting and default, in that order, into one
// Resolved value that yields the API client's configuration and the
// connection the console shows. It imports only api, api/token and store:
// the terminal (hidden prompts) stays with the command line.
package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
)

// ProfileEnvVar selects a profile when --profile is not given.
const ProfileEnvVar = "VAULTDECK_PROFILE"

// How a profile was chosen, for messages.
const (
	ChosenByFlag    = "--profile"
	ChosenByEnv     = ProfileEnvVar
	ChosenByDefault = "default"
	ChosenByToken   = token.EnvVar // no profile saved; VAULTDECK_TOKEN alone
	ChosenByServe   = "serve"      // a profile bound to an SSH key
)

// Source is a profile's token source: the API client's, and asked once
// before a console opens (a missing token fails before the screen, a
// plain-file one warns in the header).
type Source interface {
	api.TokenSource
	Resolve(ctx context.Context) (token.Resolved, error)
}

// Env is what selecting a profile and building its token source read of the
// process: the environment, the keyring and the log.
type Env struct {
	// Getenv reads the environment (VAULTDECK_HOME, VAULTDECK_PROFILE,
	// VAULTDECK_TOKEN, XDG_*); nil means an empty environment.
	Getenv func(string) string
	// Keyring is the secret store; nil means the OS keyring.
	Keyring token.Keyring
	// Logger receives diagnostics (never tokens); nil discards them.
	Logger *slog.Logger
	// Busy is told when a write waits for another process's lock on the
	// database (store.Options.Busy); nil says nothing.
	Busy func(store.BusyWait)
}

// Getenv reads one variable; nil Getenv is an empty environment.
func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Paths are the directories for e.
func (e Env) Paths() (store.Paths, error) { return store.DefaultPaths(e.Getenv) }

// OpenStore opens the database for e; the caller closes it.
func (e Env) OpenStore() (*store.Store, error) {
	p, err := e.Paths()
	if err != nil {
		return nil, err
	}
	return store.OpenWith(p.Database(), store.Options{Busy: e.Busy})
}

// NoProfileError says both ways to get going. It wraps the store's "not
// found" for errors.Is, but its text is only this sentence.
type NoProfileError struct{ cause error }

func (e NoProfileError) Unwrap() error { return e.cause }

func (NoProfileError) Error() string {
	return "no profile exists yet: run `vaultdeck login` to store a token in the keyring, " +
		"or set VAULTDECK_TOKEN (with --region or --base-url) for this shell"
}

// Select picks the profile: flag, then VAULTDECK_PROFILE, then the default.
// With no profile saved but VAULTDECK_TOKEN set, it returns an unsaved
// profile named "default" for region us, so scripts can run with the
// variable alone. It reports how the choice was made.
func Select(e Env, st *store.Store, flag string) (store.Profile, string, error) {
	cfg, err := ReadConfigFile(e)
	if err != nil {
		return store.Profile{}, ChosenByDefault, err
	}
	return selectIn(e, st, cfg, flag)
}

// selectIn is Select with the configuration file read (nil: none): a
// profile is the file's declaration over the stored row (configmerge.go).
func selectIn(e Env, st *store.Store, cfg *ConfigFile, flag string) (store.Profile, string, error) {
	name, by := flag, ChosenByFlag
	if name == "" {
		name, by = e.getenv(ProfileEnvVar), ChosenByEnv
	}
	if name != "" {
		p, err := lookupProfile(st, cfg, name)
		if errors.Is(err, store.ErrNotFound) {
			return store.Profile{}, by, fmt.Errorf("there is no profile named %q (chosen by %s); run `vaultdeck profiles` to list them or `vaultdeck login --profile %s` to create it: %w", name, by, name, err)
		}
		return p, by, err
	}
	p, err := defaultProfile(st, cfg)
	if errors.Is(err, store.ErrNotFound) {
		if e.getenv(token.EnvVar) != "" {
			return store.Profile{Name: "default", Region: "us"}, ChosenByToken, nil
		}
		return store.Profile{}, ChosenByDefault, NoProfileError{cause: err}
	}
	return p, ChosenByDefault, err
}

// TokenSource builds the token source of a profile on this machine: the
// environment's VAULTDECK_TOKEN, else the systemd credential named after
// the profile ($CREDENTIALS_DIRECTORY, as serve reads it), else the
// keyring, else the file the profile opted in to.
func TokenSource(e Env, p store.Profile) (*token.Source, error) {
	paths, err := e.Paths()
	if err != nil {
		return nil, err
	}
	return token.New(token.Options{
		Profile:        p.Name,
		Getenv:         e.Getenv,
		Keyring:        e.Keyring,
		Dir:            paths.Tokens,
		AllowFile:      p.TokenStorage == store.StorageFile,
		Logger:         e.Logger,
		CredentialsDir: e.getenv(token.CredentialsEnvVar),
	})
}

// ServiceSource builds the token source of a profile `serve` binds: the
// systemd credential ($CREDENTIALS_DIRECTORY), else the opted-in file;
// never the environment or a keyring.
func ServiceSource(e Env, p store.Profile) (*token.ServiceSource, error) {
	paths, err := e.Paths()
	if err != nil {
		return nil, err
	}
	return token.NewService(token.ServiceOptions{
		Profile:        p.Name,
		CredentialsDir: e.getenv(token.CredentialsEnvVar),
		Dir:            paths.Tokens,
		AllowFile:      p.TokenStorage == store.StorageFile,
	})
}

// Chosen is a selected profile with what it stores: its settings and its
// token source. Open and OpenBound build it; Resolve reads it.
type Chosen struct {
	Profile store.Profile
	// By says how the profile was picked (ChosenBy... constants).
	By       string
	Settings Settings
	Source   Source
}

// Stored reports whether the profile is saved (not the stand-in of
// VAULTDECK_TOKEN alone).
func (c *Chosen) Stored() bool { return c != nil && c.By != ChosenByToken }

// Open selects the profile (flag, VAULTDECK_PROFILE, default) and reads its
// settings and token source: the one call the console and the headless
// commands need before resolving. The token itself is looked up lazily.
func Open(e Env, st *store.Store, flag string) (*Chosen, error) {
	cfg, err := ReadConfigFile(e)
	if err != nil {
		return nil, err
	}
	p, by, err := selectIn(e, st, cfg, flag)
	if err != nil {
		return nil, err
	}
	src, err := TokenSource(e, p)
	if err != nil {
		return nil, err
	}
	c := &Chosen{Profile: p, By: by, Source: src}
	if by != ChosenByToken {
		if c.Settings, err = settingsOf(st, cfg, p); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// OpenBound reads a profile that `serve` binds to SSH keys, with its
// settings and its service token source.
func OpenBound(e Env, st *store.Store, name string) (*Chosen, error) {
	cfg, err := ReadConfigFile(e)
	if err != nil {
		return nil, err
	}
	p, err := lookupProfile(st, cfg, name)
	if err != nil {
		return nil, fmt.Errorf("profile %q is not configured on this server (run `vaultdeck login --profile %s` as the service's user): %w", name, name, err)
	}
	src, err := ServiceSource(e, p)
	if err != nil {
		return nil, err
	}
	s, err := settingsOf(st, cfg, p)
	if err != nil {
		return nil, err
	}
	return &Chosen{Profile: p, By: ChosenByServe, Settings: s, Source: src}, nil
}
