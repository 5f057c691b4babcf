package token_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/api/token/tokentest"
)

const secret = "vdtok_S3cr3t-value_0123456789"

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// brokenKeyring fails every call; blocking set means it never answers (a
// locked keyring waiting for a password prompt).
type brokenKeyring struct {
	calls    atomic.Int32
	blocking bool
	release  chan struct{}
}

func (b *brokenKeyring) do() error {
	b.calls.Add(1)
	if b.blocking {
		<-b.release
	}
	return errors.New("org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided")
}
func (b *brokenKeyring) Get(string, string) (string, error) { return "", b.do() }
func (b *brokenKeyring) Set(string, string, string) error   { return b.do() }
func (b *brokenKeyring) Delete(string, string) error        { return b.do() }

func newSource(t *testing.T, o token.Options) *token.Source {
	t.Helper()
	if o.Profile == "" {
		o.Profile = "work"
	}
	if o.Dir == "" {
		o.Dir = filepath.Join(t.TempDir(), "tokens")
	}
	s, err := token.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOrderEnvThenKeyringThenFile(t *testing.T) {
	ctx := context.Background()
	kr := tokentest.NewMemoryKeyring()
	dir := filepath.Join(t.TempDir(), "tokens")
	if err := token.WriteTokenFile(filepath.Join(dir, "work.token"), "from-file"); err != nil {
		t.Fatal(err)
	}
	e := map[string]string{}
	s := newSource(t, token.Options{Getenv: env(e), Keyring: kr, Dir: dir, AllowFile: true})

	r, err := s.Resolve(ctx)
	if err != nil || r.Token != "from-file" || r.Source != token.KindFile || r.Warning == "" || r.File == "" {
		t.Fatalf("file only: %v %v %q", r.Source, err, r.Warning)
	}
	if k, w := s.Answered(); k != token.KindFile || w == "" {
		t.Fatalf("Answered = %v %q, want file with a warning", k, w)
	}

	kr.Set(token.Service, "work", "from-keyring")
	s.Forget()
	if r, _ := s.Resolve(ctx); r.Token != "from-keyring" || r.Source != token.KindKeyring || r.Warning != "" {
		t.Fatalf("keyring should win over the file: %v", r)
	}

	e[token.EnvVar] = " from-env\n"
	if r, _ := s.Resolve(ctx); r.Token != "from-env" || r.Source != token.KindEnv {
		t.Fatalf("env should win: %v", r)
	}
	if k, _ := s.Answered(); k != token.KindEnv {
		t.Fatalf("Answered = %v", k)
	}
}

func TestFileIgnoredWithoutOptIn(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tokens")
	token.WriteTokenFile(filepath.Join(dir, "work.token"), "plain")
	s := newSource(t, token.Options{Keyring: tokentest.NewMemoryKeyring(), Dir: dir})
	_, err := s.Resolve(context.Background())
	var nt *token.NoTokenError
	if !errors.As(err, &nt) || nt.FileAllowed {
		t.Fatalf("a file must not be read without the opt-in: %v", err)
	}
}

func TestUnavailableKeyringIsRememberedPerSource(t *testing.T) {
	kr := &brokenKeyring{}
	s := newSource(t, token.Options{Keyring: kr})
	for i := 0; i < 3; i++ {
		if _, err := s.Token(context.Background()); err == nil {
			t.Fatal("expected an error")
		}
	}
	if n := kr.calls.Load(); n != 1 {
		t.Fatalf("keyring asked %d times, want once per Source", n)
	}
	if s.KeyringUnavailable() == nil {
		t.Fatal("KeyringUnavailable should report the failure")
	}
	// A new Source (a new process, in effect) asks again: nothing global.
	s2 := newSource(t, token.Options{Keyring: kr})
	s2.Token(context.Background())
	if n := kr.calls.Load(); n != 2 {
		t.Fatalf("second Source should ask the keyring itself; calls = %d", n)
	}
}

func TestLockedKeyringTimesOutWithTheThreeWaysOut(t *testing.T) {
	kr := &brokenKeyring{blocking: true, release: make(chan struct{})}
	defer close(kr.release)
	s := newSource(t, token.Options{Profile: "lab", Keyring: kr, Timeout: 50 * time.Millisecond})
	start := time.Now()
	_, err := s.Token(context.Background())
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("a locked keyring blocked for %v", took)
	}
	var nt *token.NoTokenError
	if !errors.As(err, &nt) || nt.Keyring == nil {
		t.Fatalf("err = %v, want a NoTokenError with the keyring cause", err)
	}
	msg := err.Error()
	for _, want := range []string{"did not answer", "unlock the system keyring", "VAULTDECK_TOKEN", "vaultdeck login --profile lab --insecure-storage"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	// Remembered: the second call does not ask the keyring again (counted,
	// not timed: a loaded machine can take 40ms for anything).
	s.Token(context.Background())
	if n := kr.calls.Load(); n != 1 {
		t.Fatalf("second lookup asked the keyring again: %d calls", n)
	}
}

func TestSaveNeverFallsBackToFile(t *testing.T) {
	s := newSource(t, token.Options{Keyring: &brokenKeyring{}})
	_, err := s.Save(context.Background(), token.KindKeyring, secret)
	var nt *token.NoTokenError
	if !errors.As(err, &nt) || !nt.Saving {
		t.Fatalf("Save = %v, want a saving NoTokenError", err)
	}
	if _, err := os.Stat(s.FilePath()); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a keyring failure wrote a token file")
	}
	if strings.Contains(err.Error(), secret) {
		t.Fatal("the error quotes the token")
	}
}

func TestSaveAndRemove(t *testing.T) {
	ctx := context.Background()
	kr := tokentest.NewMemoryKeyring()
	s := newSource(t, token.Options{Keyring: kr})

	// Opt in to a file: a keyring copy must not shadow it.
	kr.Set(token.Service, "work", "stale")
	r, err := s.Save(ctx, token.KindFile, secret)
	if err != nil || r.Source != token.KindFile || r.Warning == "" {
		t.Fatalf("Save(file) = %v, %v", r, err)
	}
	if kr.Len() != 0 {
		t.Fatal("the stale keyring token would shadow the new file")
	}
	fi, err := os.Stat(s.FilePath())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode = %v, %v", fi.Mode().Perm(), err)
	}
	di, _ := os.Stat(filepath.Dir(s.FilePath()))
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("token dir mode = %v", di.Mode().Perm())
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(s.FilePath()), ".token-*"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left behind: %v", leftovers)
	}

	// Back to the keyring: the plain-text copy goes.
	if r, err := s.Save(ctx, token.KindKeyring, secret); err != nil || r.Source != token.KindKeyring {
		t.Fatalf("Save(keyring) = %v, %v", r, err)
	}
	if _, err := os.Stat(s.FilePath()); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("plain-text copy survived moving the token to the keyring")
	}
	fresh := newSource(t, token.Options{Keyring: kr, Dir: filepath.Dir(s.FilePath())})
	if tok, err := fresh.Token(ctx); err != nil || tok != secret {
		t.Fatalf("a fresh Source reads %q, %v", tok, err)
	}

	rm, err := s.Remove(ctx)
	if err != nil || !rm.Keyring || rm.File || rm.KeyringErr != nil {
		t.Fatalf("Remove = %+v, %v", rm, err)
	}
	if _, err := s.Token(ctx); err == nil {
		t.Fatal("token still resolvable after Remove")
	}
	if _, err := s.Save(ctx, token.KindEnv, secret); err == nil {
		t.Fatal("saving to the environment must be refused")
	}
	if _, err := s.Save(ctx, token.KindKeyring, "has space"); err == nil {
		t.Fatal("a token with spaces must be refused")
	}
}

func TestLooseFilePermissionsAreRefused(t *testing.T) {
	s := newSource(t, token.Options{Keyring: tokentest.NewMemoryKeyring(), AllowFile: true})
	if _, err := s.Save(context.Background(), token.KindFile, secret); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		mode os.FileMode
	}{{s.FilePath(), 0o640}, {s.FilePath(), 0o604}, {filepath.Dir(s.FilePath()), 0o755}} {
		os.Chmod(tc.path, tc.mode)
		fresh := newSource(t, token.Options{Keyring: tokentest.NewMemoryKeyring(), Dir: filepath.Dir(s.FilePath()), AllowFile: true})
		_, err := fresh.Token(context.Background())
		if err == nil || !strings.Contains(err.Error(), "other users can access it") || strings.Contains(err.Error(), secret) {
			t.Errorf("mode %v on %s: err = %v", tc.mode, tc.path, err)
		}
		os.Chmod(s.FilePath(), 0o600)
		os.Chmod(filepath.Dir(s.FilePath()), 0o700)
	}
	// A symlink to a private file is still refused.
	link := filepath.Join(filepath.Dir(s.FilePath()), "linked.token")
	os.Symlink(s.FilePath(), link)
	linked := newSource(t, token.Options{Profile: "linked", Keyring: tokentest.NewMemoryKeyring(), Dir: filepath.Dir(s.FilePath()), AllowFile: true})
	if _, err := linked.Token(context.Background()); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("symlink: %v", err)
	}
}

func TestBadProfileNames(t *testing.T) {
	for _, name := range []string{"", "../x", "a/b", ".hidden", `a\b`} {
		if _, err := token.New(token.Options{Profile: name}); err == nil {
			t.Errorf("New accepted profile %q", name)
		}
	}
}

// TestTokenNeverInLogsOrMessages captures every log line and error text a
// full cycle produces and looks for the token in them.
func TestTokenNeverInLogsOrMessages(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx := context.Background()
	var texts []string

	leaky := &leakyKeyring{}
	s := newSource(t, token.Options{Keyring: leaky, Logger: logger})
	_, err := s.Save(ctx, token.KindKeyring, secret)
	texts = append(texts, fmt.Sprint(err))
	s2 := newSource(t, token.Options{Keyring: tokentest.NewMemoryKeyring(), Logger: logger})
	r, _ := s2.Save(ctx, token.KindFile, secret)
	r2, _ := s2.Resolve(ctx)
	texts = append(texts, fmt.Sprint(r), fmt.Sprintf("%v %+v %#v", r2, r2, r2), fmt.Sprintf("%v %#v", token.NewFixed(secret), token.NewFixed(secret)))
	logger.Info("resolved", "r", r2)
	s2.Remove(ctx)
	_, err = s2.Token(ctx)
	texts = append(texts, fmt.Sprint(err), logs.String())
	for _, txt := range texts {
		if strings.Contains(txt, secret) {
			t.Fatalf("token leaked into: %s", txt)
		}
	}
	if !strings.Contains(logs.String(), "plain-text") {
		t.Fatalf("expected the log to record the insecure save:\n%s", logs.String())
	}
}

// leakyKeyring fails with an error that quotes the secret, as a careless
// backend might.
type leakyKeyring struct{}

func (leakyKeyring) Get(string, string) (string, error) { return "", token.ErrNotFound }
func (leakyKeyring) Set(_, _, s string) error           { return fmt.Errorf("cannot store %q", s) }
func (leakyKeyring) Delete(string, string) error        { return token.ErrNotFound }

// TestCommandsReadTheSystemdCredential: every command, not only serve,
// reads the profile's systemd credential ($CREDENTIALS_DIRECTORY/PROFILE,
// as LoadCredential= makes it) after VAULTDECK_TOKEN and before the
// keyring, which a service usually cannot unlock (the follow's unit then
// needs no token file). A credential others can read is refused, not
// passed over; a directory without the profile's file is passed over.
func TestCommandsReadTheSystemdCredential(t *testing.T) {
	ctx := context.Background()
	creds := t.TempDir()
	if err := os.WriteFile(filepath.Join(creds, "work"), []byte(secret+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	kr := tokentest.NewMemoryKeyring()
	kr.Set(token.Service, "work", "keyring-token")
	kr.Set(token.Service, "other", "keyring-token")

	s := newSource(t, token.Options{Keyring: kr, CredentialsDir: creds})
	if r, err := s.Resolve(ctx); err != nil || r.Token != secret || r.Source != token.KindCredential || r.File != filepath.Join(creds, "work") {
		t.Fatalf("the credential before the keyring: %v %v", r, err)
	}
	if k, _ := s.Answered(); k != token.KindCredential {
		t.Errorf("answered by %q, want the credential", k)
	}
	s = newSource(t, token.Options{Keyring: kr, CredentialsDir: creds, Getenv: env(map[string]string{token.EnvVar: "env-token"})})
	if r, err := s.Resolve(ctx); err != nil || r.Token != "env-token" {
		t.Fatalf("VAULTDECK_TOKEN wins over the credential: %v %v", r, err)
	}
	s = newSource(t, token.Options{Profile: "other", Keyring: kr, CredentialsDir: creds})
	if r, err := s.Resolve(ctx); err != nil || r.Token != "keyring-token" {
		t.Fatalf("no credential of this profile: the keyring: %v %v", r, err)
	}
	if err := os.WriteFile(filepath.Join(creds, "open"), []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(creds, "open"), 0o644)
	kr.Set(token.Service, "open", "keyring-token")
	s = newSource(t, token.Options{Profile: "open", Keyring: kr, CredentialsDir: creds})
	if r, err := s.Resolve(ctx); err == nil || !strings.Contains(err.Error(), "other users") || strings.Contains(err.Error(), secret) {
		t.Fatalf("a credential others can read is refused, not passed over: %v %v", r, err)
	}
}
