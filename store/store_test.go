package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "sub", FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenSetsPragmasAndPrivateFile(t *testing.T) {
	s := openTemp(t)
	var mode string
	if err := s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
	var sync, busy int
	if err := s.db.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != 2 {
		t.Fatalf("synchronous = %d, %v; want 2 (FULL)", sync, err)
	}
	if err := s.db.QueryRow(`PRAGMA busy_timeout`).Scan(&busy); err != nil || busy != 5000 {
		t.Fatalf("busy_timeout = %d, %v; want 5000", busy, err)
	}
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("database mode = %v, want 0600", fi.Mode().Perm())
	}
	if err := s.SaveProfile(Profile{Name: "x"}); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		fi, err := os.Stat(s.Path() + suffix)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s mode = %v, %v; want 0600", suffix, fi.Mode().Perm(), err)
		}
	}
	di, _ := os.Stat(filepath.Dir(s.Path()))
	if di.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode = %v, want 0700", di.Mode().Perm())
	}
}

func TestOpenPathWithURICharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "odd?dir#50%", FileName)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not created at the literal path: %v", err)
	}
}

func TestProfiles(t *testing.T) {
	s := openTemp(t)
	if _, err := s.DefaultProfile(); !errors.Is(err, ErrNotFound) {
		t.Fatalf("DefaultProfile on empty store = %v, want ErrNotFound", err)
	}
	if err := s.SaveProfile(Profile{Name: "work", Region: "eu", TokenStorage: StorageKeyring}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveProfile(Profile{Name: "lab", BaseURL: "https://lab.example", CAFile: "/ca.pem", ReadOnly: true}); err != nil {
		t.Fatal(err)
	}
	def, err := s.DefaultProfile()
	if err != nil || def.Name != "work" {
		t.Fatalf("first profile should be the default, got %+v, %v", def, err)
	}
	// Re-saving a default profile without IsDefault must not orphan the default.
	if err := s.SaveProfile(Profile{Name: "work", Region: "au"}); err != nil {
		t.Fatal(err)
	}
	p, err := s.Profile("work")
	if err != nil || !p.IsDefault || p.Region != "au" || p.TokenStorage != StorageNone {
		t.Fatalf("updated profile = %+v, %v", p, err)
	}
	lab, _ := s.Profile("lab")
	if !lab.ReadOnly || lab.CAFile != "/ca.pem" || lab.BaseURL != "https://lab.example" || lab.IsDefault {
		t.Fatalf("lab = %+v", lab)
	}
	if err := s.SetDefault("lab"); err != nil {
		t.Fatal(err)
	}
	if def, _ := s.DefaultProfile(); def.Name != "lab" {
		t.Fatalf("default after SetDefault = %q", def.Name)
	}
	if err := s.SetDefault("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("SetDefault(nope) = %v", err)
	}
	if err := s.SetTokenStorage("lab", StorageFile); err != nil {
		t.Fatal(err)
	}
	all, err := s.Profiles()
	if err != nil || len(all) != 2 || all[0].Name != "lab" || all[0].TokenStorage != StorageFile {
		t.Fatalf("Profiles = %+v, %v", all, err)
	}

	if err := s.SetSetting("lab", "theme", "mono"); err != nil {
		t.Fatal(err)
	}
	s.PutCache("lab", "projects", []byte("x"), time.Now())
	if err := s.DeleteProfile("lab"); err != nil {
		t.Fatal(err)
	}
	if def, _ := s.DefaultProfile(); def.Name != "work" {
		t.Fatalf("deleting the default should promote the remaining profile, got %q", def.Name)
	}
	if set, err := s.Settings("lab"); err != nil || len(set) != 0 {
		t.Fatalf("settings survived their profile: %v %v", set, err)
	}
	if _, _, ok, _ := s.Cache("lab", "projects"); ok {
		t.Fatal("cache survived its profile")
	}
	if err := s.DeleteProfile("lab"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete = %v", err)
	}
}

func TestProfileValidation(t *testing.T) {
	s := openTemp(t)
	bad := []Profile{
		{Name: ""},
		{Name: "../etc"},
		{Name: ".hidden"},
		{Name: "a b"},
		{Name: "ok", Region: "mars"},
		{Name: "ok", Region: "us", BaseURL: "https://x"},
		{Name: "ok", BaseURL: "ftp://x"},
		{Name: "ok", BaseURL: "/relative"},
		{Name: "ok", TokenStorage: "plaintext"},
	}
	for _, p := range bad {
		if err := s.SaveProfile(p); err == nil {
			t.Errorf("SaveProfile(%+v) accepted", p)
		}
	}
}

func TestCache(t *testing.T) {
	s := openTemp(t)
	if _, _, ok, err := s.Cache("work", "projects"); ok || err != nil {
		t.Fatalf("empty cache = %v, %v", ok, err)
	}
	t1 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	body := []byte("{\"a\":1}\x00binary")
	if err := s.PutCache("work", "projects", body, t1); err != nil {
		t.Fatal(err)
	}
	got, at, ok, err := s.Cache("work", "projects")
	if err != nil || !ok || !bytes.Equal(got, body) || !at.Equal(t1) {
		t.Fatalf("Cache = %q %v %v %v", got, at, ok, err)
	}
	t2 := t1.Add(time.Hour)
	s.PutCache("work", "projects", []byte("new"), t2)
	s.PutCache("work", "old", nil, t1.Add(-time.Hour))
	got, at, _, _ = s.Cache("work", "projects")
	if string(got) != "new" || !at.Equal(t2) {
		t.Fatalf("replaced entry = %q %v", got, at)
	}
	if _, _, ok, _ := s.Cache("home", "projects"); ok {
		t.Fatal("cache leaked across profiles")
	}
	n, err := s.PruneCache(t1)
	if err != nil || n != 1 {
		t.Fatalf("PruneCache = %d, %v", n, err)
	}
	s.DeleteCache("work", "projects")
	if _, _, ok, _ := s.Cache("work", "projects"); ok {
		t.Fatal("DeleteCache left the entry")
	}
}

func TestPaths(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos string
		env  map[string]string
		want Paths
	}{
		{"linux", map[string]string{"HOME": "/h"}, Paths{"/h/.local/share/vaultdeck", "/h/.config/vaultdeck", "/h/.config/vaultdeck/tokens"}},
		{"linux", map[string]string{"HOME": "/h", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c"}, Paths{"/d/vaultdeck", "/c/vaultdeck", "/c/vaultdeck/tokens"}},
		{"linux", map[string]string{"HOME": "/h", "XDG_DATA_HOME": "rel"}, Paths{"/h/.local/share/vaultdeck", "/h/.config/vaultdeck", "/h/.config/vaultdeck/tokens"}},
		{"linux", map[string]string{"HOME": "/h", "VAULTDECK_HOME": "/v"}, Paths{"/v", "/v", "/v/tokens"}},
		{"darwin", map[string]string{"HOME": "/Users/x"}, Paths{"/Users/x/Library/Application Support/vaultdeck", "/Users/x/Library/Application Support/vaultdeck", "/Users/x/Library/Application Support/vaultdeck/tokens"}},
	}
	for _, tc := range tests {
		got, err := pathsFor(tc.goos, env(tc.env))
		if err != nil || got != tc.want {
			t.Errorf("%s %v: got %+v, %v; want %+v", tc.goos, tc.env, got, err, tc.want)
		}
	}
	if _, err := pathsFor("linux", env(nil)); err == nil {
		t.Error("no HOME and no VAULTDECK_HOME should be an error")
	}
	p, _ := DefaultPaths(env(map[string]string{"VAULTDECK_HOME": "/v"}))
	if p.Database() != "/v/vaultdeck.db" {
		t.Errorf("DefaultPaths(...).Database() = %q", p.Database())
	}
}
