package token

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/vaultdeck/vaultdeck/api/localfile"
)

// CredentialsEnvVar is where systemd puts the credentials of a unit
// (LoadCredential=, SetCredentialEncrypted=): one file per credential, named
// as the unit names it, readable only by the service.
const CredentialsEnvVar = "CREDENTIALS_DIRECTORY"

// KindCredential is a token read from systemd's credentials directory.
const KindCredential Kind = "credential"

// ServiceOptions configure a ServiceSource.
type ServiceOptions struct {
	Profile string
	// CredentialsDir is $CREDENTIALS_DIRECTORY ("" when not run by systemd).
	CredentialsDir string
	// Dir and AllowFile are as in Options: the opt-in token file.
	Dir       string
	AllowFile bool
}

// ServiceSource is the token of a profile on a host with no person at the
// keyboard and usually no Secret Service (a jump host serving the console
// over SSH): the systemd credential named after the profile, else the token
// file the profile opted in to. It never reads the environment (a single
// VAULTDECK_TOKEN would hand one token to every profile) and never a
// keyring (nobody could unlock it). Safe for concurrent use.
type ServiceSource struct {
	opts ServiceOptions

	mu    sync.Mutex
	found *Resolved
}

// NewService returns the service source of a profile.
func NewService(o ServiceOptions) (*ServiceSource, error) {
	if err := validName(o.Profile); err != nil {
		return nil, err
	}
	return &ServiceSource{opts: o}, nil
}

// Token implements api.TokenSource.
func (s *ServiceSource) Token(ctx context.Context) (string, error) {
	r, err := s.Resolve(ctx)
	return r.Token, err
}

// Resolve finds the token: credential first, then the opt-in file. A found
// token is kept for the life of the source.
func (s *ServiceSource) Resolve(context.Context) (Resolved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.found != nil {
		return *s.found, nil
	}
	var credErr error
	if dir := s.opts.CredentialsDir; dir != "" {
		path := filepath.Join(dir, s.opts.Profile)
		tok, err := readCredential(path)
		if err == nil {
			s.found = &Resolved{Token: tok, Source: KindCredential, File: path}
			return *s.found, nil
		}
		if !errors.Is(err, ErrNotFound) {
			credErr = err
		}
	}
	if s.opts.AllowFile && s.opts.Dir != "" {
		path := filepath.Join(s.opts.Dir, s.opts.Profile+".token")
		tok, err := readTokenFile(path)
		if err == nil {
			s.found = &Resolved{Token: tok, Source: KindFile, File: path, Warning: fileWarning(s.opts.Profile)}
			return *s.found, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return Resolved{}, fmt.Errorf("profile %q: %w", s.opts.Profile, err)
		}
	}
	if credErr != nil {
		return Resolved{}, fmt.Errorf("profile %q: %w", s.opts.Profile, credErr)
	}
	return Resolved{}, s.missing()
}

func (s *ServiceSource) missing() error {
	where := "no systemd credential (" + CredentialsEnvVar + " is not set)"
	if s.opts.CredentialsDir != "" {
		where = "no credential " + filepath.Join(s.opts.CredentialsDir, s.opts.Profile)
	}
	if s.opts.AllowFile {
		where += " and no token file " + filepath.Join(s.opts.Dir, s.opts.Profile+".token")
	} else {
		where += ", and the profile did not opt in to a token file"
	}
	return fmt.Errorf("no API token for profile %q: %s; give the unit LoadCredential=%s:/path/to/token, or run `vaultdeck login --profile %s --insecure-storage` as the service's user",
		s.opts.Profile, where, s.opts.Profile, s.opts.Profile)
}

// readCredential reads one credential file. systemd makes the directory
// and file private to the service; a file others can read is refused all
// the same, since then it is not what systemd made.
func readCredential(path string) (string, error) {
	f, err := localfile.Open(path, localfile.Credential)
	if errors.Is(err, fs.ErrNotExist) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("refusing to use the credential %w", err)
	}
	defer f.Close()
	if err := checkPrivate(path, f.Info()); err != nil {
		return "", err
	}
	b, err := f.ReadAll()
	if err != nil {
		return "", fmt.Errorf("the credential cannot be read: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("the credential %s is empty", path)
	}
	return tok, nil
}
