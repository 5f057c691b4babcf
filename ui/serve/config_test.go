package serve

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A malformed line is reported by number and skipped; the other keys work.
func TestParseKeysSkipsBadLinesByNumber(t *testing.T) {
	_, a := newKey(t)
	_, b := newKey(t)
	_, c := newKey(t)
	body := strings.Join([]string{
		"# comment",
		`vaultdeck-profile="eu-prod",no-port-forwarding ` + a + " alice",
		"ssh-ed25519 not-base64!!",
		"",
		b + " bob",
		`from="10.0.0.0/8" ` + c + " carol",
		`vaultdeck-profile=eu-prod ` + c + " carol",
		`vaultdeck-profile="../x" ` + c + " carol",
		a + " alice again",
	}, "\n")
	ks := ParseKeys([]byte(body))
	if len(ks.List) != 2 {
		t.Fatalf("accepted %d keys, want 2: %+v", len(ks.List), ks.List)
	}
	if ks.List[0].Profile != "eu-prod" || ks.List[0].Comment != "alice" || ks.List[1].Profile != "" {
		t.Errorf("keys: %+v %+v", ks.List[0], ks.List[1])
	}
	want := []string{"line 3:", "line 6: option \"from\"", "line 7: vaultdeck-profile", "line 8: vaultdeck-profile", "line 9: the same key as line 2"}
	if len(ks.Problems) != len(want) {
		t.Fatalf("problems %q", ks.Problems)
	}
	for i, w := range want {
		if !strings.HasPrefix(ks.Problems[i], w) {
			t.Errorf("problem %d = %q, want prefix %q", i, ks.Problems[i], w)
		}
	}
	if got := ks.Profiles(); len(got) != 1 || got[0] != "eu-prod" {
		t.Errorf("profiles %v", got)
	}
}

func TestStartRefusals(t *testing.T) {
	home := t.TempDir()
	env := func(k string) string {
		if k == "VAULTDECK_HOME" {
			return home
		}
		return ""
	}
	keys := filepath.Join(home, "keys")
	_, line := newKey(t)
	if err := os.WriteFile(keys, []byte("garbage\n"+line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "--authorized-keys is required"},
		{Config{AuthorizedKeys: filepath.Join(home, "missing")}, "no such file"},
		{Config{AuthorizedKeys: keys, Listen: "0.0.0.0:2222"}, "not a loopback address"},
		{Config{AuthorizedKeys: keys, Listen: "192.0.2.1:22"}, "give --listen 192.0.2.1:22 explicitly"},
	} {
		tc.cfg.Getenv = env
		_, err := New(tc.cfg, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.cfg, err, tc.want)
		}
	}
	var warn bytes.Buffer
	s, err := New(Config{AuthorizedKeys: keys, Listen: "0.0.0.0:2222", ListenExplicit: true, Getenv: env}, &warn)
	if err != nil {
		t.Fatalf("explicit --listen: %v", err)
	}
	s.Close()
	if !strings.Contains(warn.String(), "line 1: not a public key") {
		t.Errorf("warning %q", warn.String())
	}
}

// The host key is generated once, 0600, in the state directory (systemd's
// STATE_DIRECTORY first), never in the working directory; a key others can
// read is refused.
func TestHostKeyInStateDirectory(t *testing.T) {
	state, home, wd := t.TempDir(), t.TempDir(), t.TempDir()
	t.Chdir(wd)
	dir, err := StateDir(func(k string) string {
		return map[string]string{"STATE_DIRECTORY": state, "VAULTDECK_HOME": home}[k]
	})
	if err != nil || dir != state {
		t.Fatalf("state dir %q %v", dir, err)
	}
	if dir, _ := StateDir(func(k string) string { return map[string]string{"VAULTDECK_HOME": home}[k] }); dir != home {
		t.Fatalf("without systemd: %q", dir)
	}
	path := filepath.Join(state, HostKeyName)
	s1, created, err := HostKey(path)
	if err != nil || !created {
		t.Fatal(err, created)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	s2, created, err := HostKey(path)
	if err != nil || created || !bytes.Equal(s1.PublicKey().Marshal(), s2.PublicKey().Marshal()) {
		t.Fatal("the key changed on the second start", err, created)
	}
	if entries, _ := os.ReadDir(wd); len(entries) != 0 {
		t.Fatalf("files written to the working directory: %v", entries)
	}
	os.Chmod(path, 0o644)
	if _, _, err := HostKey(path); err == nil || !strings.Contains(err.Error(), "other users") {
		t.Fatalf("a readable host key: %v", err)
	}
}

// serve --check validates without serving: keys, host key, and each bound
// profile's token (accepted by whoami, or why not).
func TestCheck(t *testing.T) {
	f := startServer(t)
	var out bytes.Buffer
	if code := f.srv.Check(context.Background(), &out); code != 0 {
		t.Fatalf("check failed:\n%s", out.String())
	}
	for _, want := range []string{"ok   authorized keys", "ok   host key", "ok   profile sim: token from a systemd credential accepted"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
	// a bound profile with no token, and one that does not exist
	keys := filepath.Join(f.home, "authorized_keys")
	_, l1 := newKey(t)
	_, l2 := newKey(t)
	body := fmt.Sprintf("vaultdeck-profile=\"sim\" %s\nvaultdeck-profile=\"nope\" %s\n", l1, l2)
	if err := os.WriteFile(keys, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cred := filepath.Join(f.home, "creds", "sim")
	os.Remove(cred)
	if err := os.WriteFile(cred, []byte("wrong-token"), 0o400); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{AuthorizedKeys: keys, Getenv: f.srv.cfg.Getenv}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out.Reset()
	if code := s.Check(context.Background(), &out); code != 1 {
		t.Fatalf("check passed:\n%s", out.String())
	}
	for _, want := range []string{"FAIL profile sim, token from a systemd credential: That token was not accepted (401)", "FAIL profile nope: profile \"nope\" is not configured"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "wrong-token") {
		t.Fatal("check printed the token")
	}
}

// Skipped lines in the keys file are warnings: one usable key is a set-up
// that serves, so --check (the unit's ExecStartPre) passes and says what
// was skipped; no usable key at all fails before any check.
func TestCheckSkippedLinesAreWarnings(t *testing.T) {
	f := startServer(t)
	keys := filepath.Join(f.home, "authorized_keys")
	_, good := newKey(t)
	body := fmt.Sprintf("%s=\"sim\" %s alice@laptop\nssh-rsa not-base64 broken@line\nno-such-option %s x\n", ProfileOption, good, good)
	if err := os.WriteFile(keys, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{AuthorizedKeys: keys, Getenv: f.srv.cfg.Getenv}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out bytes.Buffer
	if code := s.Check(context.Background(), &out); code != 0 {
		t.Fatalf("check exited %d with one usable key:\n%s", code, out.String())
	}
	for _, want := range []string{"ok   authorized keys", "1 key, 2 lines skipped", "warn line 2:", "warn line 3:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
	if err := os.WriteFile(keys, []byte("ssh-rsa not-base64 broken@line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := Run(context.Background(), []string{"--check", "--authorized-keys", keys}, Env{Stdout: &out, Stderr: &out, Getenv: f.srv.cfg.Getenv}); code == 0 {
		t.Fatalf("check passed with no usable key:\n%s", out.String())
	}
}

// serve --help names the pre-authentication limits with their defaults.
func TestHelpNamesStartupLimits(t *testing.T) {
	var out bytes.Buffer
	Run(context.Background(), []string{"--help"}, Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }})
	for _, want := range []string{"-login-grace-time duration", "(default 30s)", "-max-startups start:rate:full", "(default 10:30:100)",
		"-banner-timeout duration", "(default 5s)", "-per-source-max-startups int", "(default 5)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q:\n%s", want, out.String())
		}
	}
}
