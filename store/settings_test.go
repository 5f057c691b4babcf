package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestProfileSettings(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SetSetting("nope", "theme", "mono"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("setting on a missing profile: %v", err)
	}
	if err := s.SaveProfile(Profile{Name: "eu", Region: "eu", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{{"theme", "dark"}, {"theme", "mono"}, {"stuck-after", "45m"}} {
		if err := s.SetSetting("eu", kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Settings("eu")
	if err != nil || got["theme"] != "mono" || got["stuck-after"] != "45m" || len(got) != 2 {
		t.Fatalf("settings %v, %v", got, err)
	}
	if err := s.SetSetting("eu", "theme", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.SetReadOnly("eu", true); err != nil {
		t.Fatal(err)
	}
	p, _ := s.Profile("eu")
	if got, _ := s.Settings("eu"); got["theme"] != "" || !p.ReadOnly {
		t.Errorf("after unset: %v, read-only %v", got, p.ReadOnly)
	}
	if err := s.DeleteProfile("eu"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Settings("eu"); len(got) != 0 {
		t.Errorf("settings outlived their profile: %v", got)
	}
}

// TestOpenScratchWaitsForItsSchema: the background-opened database answers
// its first callers only once migrated; a path that cannot be opened is
// reported by the calls, and Close is harmless.
func TestOpenScratchWaitsForItsSchema(t *testing.T) {
	dir := t.TempDir()
	s, begin := OpenScratchLater(func() (string, error) { return dir, nil }, nil)
	begin()
	if err := s.SaveProfile(Profile{Name: "demo", Region: "us", CreatedAt: time.Now()}); err != nil {
		t.Fatalf("first call on a scratch store: %v", err)
	}
	if v, err := s.Version(); err != nil || v != len(migrations) {
		t.Errorf("version %d, %v", v, err)
	}
	var sync int
	if err := s.db.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != 0 {
		t.Errorf("synchronous = %d, %v; a scratch store skips the fsync", sync, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "a-file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	bad, beginBad := OpenScratchLater(func() (string, error) { return notDir, nil }, nil) // FileName under a file
	beginBad()
	if _, err := bad.Profiles(); err == nil {
		t.Error("a store that could not be opened answered")
	}
	if err := bad.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}
