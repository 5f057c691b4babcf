package token

import (
	"context"
	"errors"
	"fmt"
)

// Save stores the token for the profile in the keyring (KindKeyring) or, when
// the user opted in with --insecure-storage, in a private file (KindFile).
// It never falls back from one to the other: a keyring failure is returned
// as a *NoTokenError naming the ways out, and the caller decides.
func (s *Source) Save(ctx context.Context, kind Kind, tok string) (Resolved, error) {
	if err := ValidateToken(tok); err != nil {
		return Resolved{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch kind {
	case KindKeyring:
		_, err := s.keyringCall(ctx, func(k Keyring) (string, error) {
			return "", redact(k.Set(Service, s.opts.Profile, tok), tok)
		})
		if err != nil {
			if ctx.Err() != nil {
				return Resolved{}, fmt.Errorf("saving the token was cancelled: %w", ctx.Err())
			}
			return Resolved{}, &NoTokenError{Profile: s.opts.Profile, Saving: true, Keyring: err}
		}
		// An old opted-in file would otherwise linger as a plain-text copy.
		if s.opts.Dir != "" {
			if _, err := removeTokenFile(s.FilePath()); err != nil {
				return Resolved{}, fmt.Errorf("the token is in the keyring, but the old plain-text copy could not be removed: %w", err)
			}
		}
		s.opts.AllowFile = false
		s.log.Info("token saved", "profile", s.opts.Profile, "storage", string(KindKeyring))
		return s.foundLocked(Resolved{Token: tok, Source: KindKeyring}), nil

	case KindFile:
		if s.opts.Dir == "" {
			return Resolved{}, errors.New("no directory is configured for token files")
		}
		if err := writeTokenFile(s.FilePath(), tok); err != nil {
			return Resolved{}, err
		}
		s.opts.AllowFile = true
		// A token left in the keyring would shadow the file (the keyring is
		// asked first). Best effort: an unavailable keyring cannot shadow.
		_, err := s.keyringCall(ctx, func(k Keyring) (string, error) { return "", k.Delete(Service, s.opts.Profile) })
		s.log.Warn("token saved in a plain-text file at the user's request", "profile", s.opts.Profile, "path", s.FilePath(),
			"keyring_copy_removed", err == nil, "keyring_unavailable", s.keyringErr != nil)
		return s.foundLocked(Resolved{Token: tok, Source: KindFile, File: s.FilePath(), Warning: fileWarning(s.opts.Profile)}), nil

	case KindEnv:
		return Resolved{}, fmt.Errorf("%s is never written anywhere; set it in your shell instead", EnvVar)
	}
	return Resolved{}, fmt.Errorf("unknown token storage %q", kind)
}

// Removal reports what Remove found and deleted.
type Removal struct {
	Keyring bool // a token was deleted from the keyring
	File    bool // a token file was deleted
	// KeyringErr is set when the keyring could not be asked; a token may
	// still be in it.
	KeyringErr error
}

// Remove deletes the profile's token from the keyring and any token file.
// The returned error is about the file; keyring trouble is in KeyringErr so
// the caller can judge it against where the profile says the token was.
func (s *Source) Remove(ctx context.Context) (Removal, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.found = nil
	s.last = Resolved{}
	var r Removal
	_, err := s.keyringCall(ctx, func(k Keyring) (string, error) { return "", k.Delete(Service, s.opts.Profile) })
	switch {
	case err == nil:
		r.Keyring = true
	case !errors.Is(err, ErrNotFound):
		r.KeyringErr = err
	}
	if s.opts.Dir != "" {
		removed, err := removeTokenFile(s.FilePath())
		r.File = removed
		if err != nil {
			return r, err
		}
	}
	s.log.Info("token removed", "profile", s.opts.Profile, "keyring", r.Keyring, "file", r.File, "keyring_unavailable", r.KeyringErr != nil)
	return r, nil
}

// KeyringUnavailable returns why the keyring was given up on, or nil.
func (s *Source) KeyringUnavailable() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keyringErr
}

// Fixed is a TokenSource holding one token, for checking a token with whoami
// before it is saved. Its String method hides the token.
type Fixed struct{ tok string }

// NewFixed wraps a token.
func NewFixed(tok string) Fixed { return Fixed{tok: tok} }

// Token implements api.TokenSource.
func (f Fixed) Token(context.Context) (string, error) {
	if f.tok == "" {
		return "", errors.New("no token was given")
	}
	return f.tok, nil
}

// String hides the token from %v.
func (f Fixed) String() string { return "token.Fixed{[redacted]}" }

// GoString hides the token from %#v.
func (f Fixed) GoString() string { return f.String() }
