// Package token finds the API token for a profile. Sources are tried in a
// fixed order: the VAULTDECK_TOKEN variable (never written anywhere), the
// systemd credential named after the profile (under a unit with
// LoadCredential=), the OS keyring, and a plain-text file only when the user opted in with
// `vaultdeck login --insecure-storage`. There is never a silent fall-back to
// plain text, and the token never appears in an error or a log line.
//
// *Source satisfies api.TokenSource structurally; this package does not
// import api so that it stays usable on its own.
package token

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// EnvVar names the environment variable that overrides every stored token.
const EnvVar = "VAULTDECK_TOKEN"

// DefaultTimeout bounds each keyring call. A locked Secret Service can wait
// forever for a password prompt nobody will see; three seconds is far longer
// than a healthy keyring takes and short enough not to feel like a hang.
const DefaultTimeout = 3 * time.Second

// Kind says where a token came from, or where it is to be saved.
type Kind string

// The token sources, in the order they are tried.
const (
	KindNone    Kind = ""
	KindEnv     Kind = "env"
	KindKeyring Kind = "keyring"
	KindFile    Kind = "file"
)

// Describe names the kind for people.
func (k Kind) Describe() string {
	switch k {
	case KindEnv:
		return "the " + EnvVar + " environment variable"
	case KindKeyring:
		return "the system keyring"
	case KindFile:
		return "a plain-text file"
	case KindCredential:
		return "a systemd credential"
	}
	return "nowhere"
}

// Options configure a Source.
type Options struct {
	// Profile is the profile name, used as the keyring key and file name.
	Profile string
	// Getenv reads the environment; nil means an empty environment.
	Getenv func(string) string
	// Keyring is the secret store; nil means the OS keyring (System()).
	// Tests pass an in-memory one (tokentest.NewMemoryKeyring).
	Keyring Keyring
	// Timeout bounds every keyring call; zero means DefaultTimeout.
	Timeout time.Duration
	// Dir is the private directory for token files (store.Paths.Tokens).
	Dir string
	// AllowFile is set when the profile opted in to file storage. Without
	// it, a token file is neither read nor written.
	AllowFile bool
	// Logger receives decisions (never tokens); nil discards them.
	Logger *slog.Logger
	// CredentialsDir is $CREDENTIALS_DIRECTORY ("" when not run by
	// systemd): the profile's credential there is read after the
	// environment and before the keyring.
	CredentialsDir string
}

// Resolved is a token and where it came from.
type Resolved struct {
	Token  string
	Source Kind
	// Warning is set while an insecure source is in use; the console shows
	// it in its status bar for as long as the token is used.
	Warning string
	// File is the token file's path when Source is KindFile, the
	// credential's when KindCredential.
	File string
}

// String never prints the token, so a stray %v cannot leak it.
func (r Resolved) String() string { return fmt.Sprintf("token from %s", r.Source.Describe()) }

// GoString keeps %#v from printing the token too.
func (r Resolved) GoString() string { return "token.Resolved{" + r.String() + "}" }

// LogValue keeps slog from printing the token.
func (r Resolved) LogValue() slog.Value {
	return slog.GroupValue(slog.String("source", string(r.Source)), slog.Bool("warning", r.Warning != ""))
}

// Source resolves the token for one profile. It remembers a keyring that
// failed or timed out for the rest of its life (so one locked keyring costs
// one timeout, not one per request), and the token it found, so each API
// request does not go back to D-Bus. Safe for concurrent use.
type Source struct {
	opts    Options
	keyring Keyring
	timeout time.Duration
	log     *slog.Logger

	mu         sync.Mutex
	keyringErr error     // sticky: the keyring is unavailable
	found      *Resolved // from the keyring or file; nil until found
	last       Resolved  // what answered last (Token cleared)
}

// New returns the Source for a profile.
func New(o Options) (*Source, error) {
	if err := validName(o.Profile); err != nil {
		return nil, err
	}
	s := &Source{opts: o, keyring: o.Keyring, timeout: o.Timeout, log: o.Logger}
	if s.keyring == nil {
		s.keyring = System()
	}
	if s.timeout <= 0 {
		s.timeout = DefaultTimeout
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.opts.Getenv == nil {
		s.opts.Getenv = func(string) string { return "" }
	}
	return s, nil
}

// validName guards the file path: the name becomes a file name under Dir.
func validName(name string) error {
	if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\:`) {
		return fmt.Errorf("the profile name %q cannot be used for a token", name)
	}
	return nil
}

// FilePath is where this profile's token file lives (whether or not used).
func (s *Source) FilePath() string { return filepath.Join(s.opts.Dir, s.opts.Profile+".token") }

// Token implements api.TokenSource.
func (s *Source) Token(ctx context.Context) (string, error) {
	r, err := s.Resolve(ctx)
	return r.Token, err
}

// Answered reports which kind answered the last successful lookup and its
// warning, for the console's status bar ("" and KindNone before any).
func (s *Source) Answered() (Kind, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last.Source, s.last.Warning
}

// Forget drops the remembered token (after the API rejected it, say), so
// the next lookup asks the keyring or file again.
func (s *Source) Forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.found = nil
}

// Resolve finds the token, trying the sources in order.
func (s *Source) Resolve(ctx context.Context) (Resolved, error) {
	if tok := strings.TrimSpace(s.opts.Getenv(EnvVar)); tok != "" {
		r := Resolved{Token: tok, Source: KindEnv}
		s.remember(r)
		return r, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.found != nil {
		return *s.found, nil
	}
	// Under systemd the unit's credential is the token it was given: read
	// before a keyring the service's user can seldom unlock (and whose
	// timeout would cost every start three seconds).
	if dir := s.opts.CredentialsDir; dir != "" {
		path := filepath.Join(dir, s.opts.Profile)
		tok, err := readCredential(path)
		if err == nil {
			return s.foundLocked(Resolved{Token: tok, Source: KindCredential, File: path}), nil
		}
		if !errors.Is(err, ErrNotFound) {
			// refused, not passed over: the unit meant this file
			return Resolved{}, fmt.Errorf("profile %q: %w", s.opts.Profile, err)
		}
	}

	tok, err := s.keyringCall(ctx, func(k Keyring) (string, error) { return k.Get(Service, s.opts.Profile) })
	if err == nil {
		return s.foundLocked(Resolved{Token: tok, Source: KindKeyring}), nil
	}
	if ctx.Err() != nil {
		return Resolved{}, fmt.Errorf("looking up the token was cancelled: %w", ctx.Err())
	}
	var keyringErr error
	if !errors.Is(err, ErrNotFound) {
		keyringErr = err
	}

	nt := &NoTokenError{Profile: s.opts.Profile, Keyring: keyringErr, FileAllowed: s.opts.AllowFile, FilePath: s.FilePath()}
	if !s.opts.AllowFile || s.opts.Dir == "" {
		nt.FileAllowed = false
		s.log.Info("no token found", "profile", s.opts.Profile, "keyring_unavailable", keyringErr != nil)
		return Resolved{}, nt
	}
	tok, err = readTokenFile(s.FilePath())
	if err == nil {
		return s.foundLocked(Resolved{Token: tok, Source: KindFile, File: s.FilePath(), Warning: fileWarning(s.opts.Profile)}), nil
	}
	if !errors.Is(err, ErrNotFound) {
		nt.File = err
	}
	s.log.Info("no token found", "profile", s.opts.Profile, "keyring_unavailable", keyringErr != nil, "file_error", nt.File != nil)
	return Resolved{}, nt
}

func fileWarning(profile string) string {
	return fmt.Sprintf("Insecure storage: the token for profile %q is in a plain-text file; run `vaultdeck login --profile %s` once a keyring works", profile, profile)
}

func (s *Source) foundLocked(r Resolved) Resolved {
	s.found = &r
	s.last = Resolved{Source: r.Source, Warning: r.Warning, File: r.File}
	s.log.Info("token found", "profile", s.opts.Profile, "source", string(r.Source), "insecure", r.Warning != "")
	return r
}

func (s *Source) remember(r Resolved) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = Resolved{Source: r.Source, Warning: r.Warning, File: r.File}
}

// keyringCall runs one keyring operation in a goroutine and gives up after
// the timeout, because go-keyring has no context and a locked keyring can
// block forever. A call that timed out is abandoned: its goroutine finishes
// (or not) on its own and its result is dropped. Any failure other than "not
// found" marks the keyring unavailable for the rest of this Source's life.
// The caller holds s.mu.
func (s *Source) keyringCall(ctx context.Context, fn func(Keyring) (string, error)) (string, error) {
	if s.keyringErr != nil {
		return "", s.keyringErr
	}
	type result struct {
		v   string
		err error
	}
	ch := make(chan result, 1) // buffered: an abandoned call must not block forever
	kr := s.keyring
	go func() {
		v, err := fn(kr)
		ch <- result{v, err}
	}()
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err == nil || errors.Is(r.err, ErrNotFound) {
			return r.v, r.err
		}
		s.keyringErr = fmt.Errorf("the system keyring is unavailable (%w)", r.err)
	case <-timer.C:
		s.keyringErr = fmt.Errorf("the system keyring did not answer within %v (it may be locked and waiting for a password)", s.timeout)
	case <-ctx.Done():
		return "", ctx.Err()
	}
	s.log.Warn("keyring unavailable; not asking it again in this process", "profile", s.opts.Profile, "error", s.keyringErr)
	return "", s.keyringErr
}
