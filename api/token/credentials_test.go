package token

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestServiceSourceOrderAndRefusals(t *testing.T) {
	creds, files := t.TempDir(), filepath.Join(t.TempDir(), "tokens")
	if err := os.MkdirAll(files, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(path, body string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()

	// the credential wins over the opt-in file
	write(filepath.Join(creds, "eu-prod"), secret+"\n", 0o400)
	write(filepath.Join(files, "eu-prod.token"), "file-token", 0o600)
	s, _ := NewService(ServiceOptions{Profile: "eu-prod", CredentialsDir: creds, Dir: files, AllowFile: true})
	r, err := s.Resolve(ctx)
	if err != nil || r.Token != secret || r.Source != KindCredential {
		t.Fatalf("credential: %v %v", r, err)
	}

	// no credential: the file, but only when the profile opted in
	write(filepath.Join(files, "us.token"), "file-token", 0o600)
	s, _ = NewService(ServiceOptions{Profile: "us", CredentialsDir: creds, Dir: files, AllowFile: true})
	if r, err := s.Resolve(ctx); err != nil || r.Token != "file-token" || r.Warning == "" {
		t.Fatalf("file: %v %v", r, err)
	}
	s, _ = NewService(ServiceOptions{Profile: "us", CredentialsDir: creds, Dir: files})
	if _, err := s.Resolve(ctx); err == nil || !strings.Contains(err.Error(), "LoadCredential=us") {
		t.Fatalf("without opt-in the file must not be read: %v", err)
	}

	// a credential others can read is refused, and the message never holds the token
	write(filepath.Join(creds, "open"), secret, 0o644)
	s, _ = NewService(ServiceOptions{Profile: "open", CredentialsDir: creds})
	_, err = s.Resolve(ctx)
	if err == nil || !strings.Contains(err.Error(), "other users") || strings.Contains(err.Error(), secret) {
		t.Fatalf("world-readable credential: %v", err)
	}

	// the environment variable is not a source here
	s, _ = NewService(ServiceOptions{Profile: "none"})
	t.Setenv(EnvVar, secret)
	if _, err := s.Resolve(ctx); err == nil || strings.Contains(err.Error(), secret) {
		t.Fatalf("no source: %v", err)
	}
	if _, err := NewService(ServiceOptions{Profile: "../etc/passwd"}); err == nil {
		t.Fatal("a profile name with a path must be refused")
	}
}
