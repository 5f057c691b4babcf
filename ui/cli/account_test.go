package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/api/token/tokentest"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/accountcmd"
)

// The token sources must satisfy the client's interface.
var (
	_ api.TokenSource = (*token.Source)(nil)
	_ api.TokenSource = token.Fixed{}
)

const goodToken = "good_T0ken-abcdef0123456789"

type harness struct {
	t        *testing.T
	env      accountcmd.Env
	home     string
	vars     map[string]string
	kr       *tokentest.MemoryKeyring
	out, err bytes.Buffer
	logs     bytes.Buffer
	verified []store.Profile
}

func newHarness(t *testing.T) *harness {
	h := &harness{t: t, home: t.TempDir(), kr: tokentest.NewMemoryKeyring()}
	h.vars = map[string]string{"VAULTDECK_HOME": h.home}
	h.env = accountcmd.Env{
		Stdout:  &h.out,
		Stderr:  &h.err,
		Getenv:  func(k string) string { return h.vars[k] },
		Keyring: h.kr,
		Logger:  slog.New(slog.NewTextHandler(&h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Verify: func(ctx context.Context, p store.Profile, tok string) (accountcmd.Verified, error) {
			h.verified = append(h.verified, p)
			if !strings.HasPrefix(tok, "good") {
				return accountcmd.Verified{}, fmt.Errorf("401 Unauthorized for token %s", tok) // a careless verifier
			}
			return accountcmd.Verified{Who: "Ada Lovelace <ada@example.com>\x1b[31m"}, nil
		},
	}
	return h
}

// cmd names an account command; the harness runs it through Main, so its
// flags are parsed by the command line itself.
type cmd string

const (
	Login    cmd = "login"
	Logout   cmd = "logout"
	Profiles cmd = "profiles"
)

// run runs a command with stdin piped from input (not a terminal).
func (h *harness) run(c cmd, input string, args ...string) int {
	h.out.Reset()
	h.err.Reset()
	env := h.env
	env.Stdin = strings.NewReader(input)
	env.StdinIsTerminal = func() bool { return false }
	return h.runWith(c, env, args...)
}

// runWith runs a command against env as it is.
func (h *harness) runWith(c cmd, env accountcmd.Env, args ...string) int {
	return Main(context.Background(), append([]string{string(c)}, args...), Env{
		Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr, Getenv: env.Getenv,
		Login:  func(ctx context.Context, o accountcmd.LoginOptions) int { return accountcmd.RunLogin(ctx, o, env) },
		Logout: func(ctx context.Context, o accountcmd.LogoutOptions) int { return accountcmd.RunLogout(ctx, o, env) },
		Profiles: func(ctx context.Context, o accountcmd.ProfilesOptions) int {
			return accountcmd.RunProfiles(ctx, o, env)
		},
	})
}

func (h *harness) store() *store.Store {
	h.t.Helper()
	st, err := h.env.Account().OpenStore()
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { st.Close() })
	return st
}

func TestLoginFromStdinSavesToKeyring(t *testing.T) {
	h := newHarness(t)
	if code := h.run(Login, goodToken+"\n"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, h.err.String())
	}
	if tok, _ := h.kr.Get(token.Service, "default"); tok != goodToken {
		t.Fatalf("keyring holds %q", tok)
	}
	p, err := h.store().Profile("default")
	if err != nil || !p.IsDefault || p.Region != "us" || p.TokenStorage != store.StorageKeyring {
		t.Fatalf("profile = %+v, %v", p, err)
	}
	out := h.out.String()
	for _, want := range []string{"Logged in as Ada Lovelace <ada@example.com>", `profile "default"`, "system keyring", "Next:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") || strings.Contains(out, "[31m") {
		t.Error("server text reached the terminal with an escape sequence")
	}
}

func TestLoginFromTerminalPrompt(t *testing.T) {
	h := newHarness(t)
	env := h.env
	env.StdinIsTerminal = func() bool { return true }
	env.ReadPassword = func() ([]byte, error) { return []byte(goodToken), nil }
	if code := h.runWith(Login, env, "--profile", "eu-work", "--region", "eu", "--read-only"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, h.err.String())
	}
	if !strings.Contains(h.err.String(), "input is hidden") {
		t.Fatalf("no prompt on stderr: %q", h.err.String())
	}
	p, _ := h.store().Profile("eu-work")
	if p.Region != "eu" || !p.ReadOnly || !p.IsDefault {
		t.Fatalf("profile = %+v", p)
	}
	if len(h.verified) != 1 || h.verified[0].Region != "eu" {
		t.Fatalf("Verify saw %+v; it must check against the profile's region", h.verified)
	}
}

func TestLoginUsageErrors(t *testing.T) {
	h := newHarness(t)
	for _, args := range [][]string{
		{goodToken},
		{"--token", goodToken},
		{"--region", "eu", "--base-url", "https://x.example"},
		{"--region", "mars"},
		{"--base-url", "http://api.example.com"},
		{"--base-url", "https://user:pw@api.example.com"},
		{"--profile", "../etc"},
		{"--ca-file", filepath.Join(t.TempDir(), "missing.pem")},
	} {
		if code := h.run(Login, goodToken, args...); code != ExitUsage && code != ExitError {
			t.Errorf("%v: exit %d, want a failure", args, code)
		}
		if code := h.run(Login, goodToken, args...); code == ExitOK {
			t.Errorf("%v accepted", args)
		}
	}
	if code := h.run(Login, "", goodToken); code != ExitUsage || !strings.Contains(h.err.String(), "never from the command line") {
		t.Errorf("positional token: exit %d, %q", code, h.err.String())
	}
	if h.kr.Len() != 0 {
		t.Fatal("a failed login saved a token")
	}
	if code := h.run(Login, goodToken, "--base-url", "http://127.0.0.1:8080"); code != ExitOK {
		t.Errorf("plain HTTP to loopback (the simulator) refused: %s", h.err.String())
	}
}

func TestLoginRejectedTokenSavesNothing(t *testing.T) {
	h := newHarness(t)
	const bad = "bad_token_value_987654"
	if code := h.run(Login, bad); code != ExitError {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(h.err.String(), bad) {
		t.Fatalf("the token was echoed: %s", h.err.String())
	}
	if !strings.Contains(h.err.String(), "Nothing was saved") {
		t.Fatalf("message: %s", h.err.String())
	}
	if all, _ := h.store().Profiles(); len(all) != 0 || h.kr.Len() != 0 {
		t.Fatalf("saved something: %+v", all)
	}
	for _, in := range []string{"", "\n\n", "a\nb\n", "has space\n"} {
		if code := h.run(Login, in); code != ExitError {
			t.Errorf("stdin %q: exit %d", in, code)
		}
	}
}

// failingKeyring is an unavailable Secret Service.
type failingKeyring struct{}

func (failingKeyring) Get(string, string) (string, error) { return "", errors.New("no secret service") }
func (failingKeyring) Set(string, string, string) error   { return errors.New("no secret service") }
func (failingKeyring) Delete(string, string) error        { return errors.New("no secret service") }

func TestBrokenKeyringNeedsExplicitOptIn(t *testing.T) {
	h := newHarness(t)
	h.env.Keyring = failingKeyring{}
	if code := h.run(Login, goodToken); code != ExitError {
		t.Fatalf("exit %d", code)
	}
	msg := h.err.String()
	for _, want := range []string{"unlock the system keyring", "VAULTDECK_TOKEN", "--insecure-storage", "Nothing was saved"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	paths, _ := h.env.Account().Paths()
	if entries, _ := os.ReadDir(paths.Tokens); len(entries) != 0 {
		t.Fatal("a token file appeared without the opt-in")
	}

	if code := h.run(Login, goodToken, "--insecure-storage"); code != ExitOK {
		t.Fatalf("insecure login: exit %d: %s", code, h.err.String())
	}
	if !strings.Contains(h.err.String(), "Warning: the token is stored in plain text") {
		t.Fatalf("no warning: %s", h.err.String())
	}
	st := h.store()
	conn, err := account.Open(h.env.Account(), st, "")
	if err != nil {
		t.Fatal(err)
	}
	src, ok := conn.Source.(*token.Source)
	if !ok {
		t.Fatalf("the CLI's token source is a %T", conn.Source)
	}
	r, err := src.Resolve(context.Background())
	if err != nil || r.Source != token.KindFile || r.Token != goodToken || r.Warning == "" {
		t.Fatalf("Resolve = %v, %v", r, err)
	}
	if kind, warning := src.Answered(); kind != token.KindFile || !strings.Contains(warning, "Insecure storage") {
		t.Fatalf("status-bar warning = %v %q", kind, warning)
	}

	// Logout removes the file even though the keyring is down.
	if code := h.run(Logout, ""); code != ExitOK {
		t.Fatalf("logout: exit %d: %s", code, h.err.String())
	}
	if _, err := os.Stat(src.FilePath()); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("token file survived logout")
	}
}

func TestProfilesSelectionAndLogout(t *testing.T) {
	h := newHarness(t)
	if code := h.run(Profiles, ""); code != ExitOK || !strings.Contains(h.out.String(), "No profiles yet") {
		t.Fatalf("empty list: %d %q", code, h.out.String())
	}
	h.run(Login, goodToken, "--profile", "work")
	h.run(Login, goodToken+"2", "--profile", "lab", "--base-url", "https://lab.example.com", "--read-only")

	if code := h.run(Profiles, ""); code != ExitOK {
		t.Fatalf("exit %d: %s", code, h.err.String())
	}
	if !activeIs(h.out.String(), "work") || !strings.Contains(h.out.String(), "chosen by default") {
		t.Fatalf("first profile should be default and active:\n%s", h.out.String())
	}
	h.vars[account.ProfileEnvVar] = "lab"
	h.run(Profiles, "")
	if !activeIs(h.out.String(), "lab") || !strings.Contains(h.out.String(), "read-only") {
		t.Fatalf("VAULTDECK_PROFILE should select lab:\n%s", h.out.String())
	}
	h.run(Profiles, "", "--profile", "work")
	if !activeIs(h.out.String(), "work") {
		t.Fatalf("--profile beats VAULTDECK_PROFILE:\n%s", h.out.String())
	}
	h.vars[account.ProfileEnvVar] = "nope"
	if code := h.run(Profiles, ""); code != ExitError || !strings.Contains(h.err.String(), `no profile named "nope"`) {
		t.Fatalf("unknown VAULTDECK_PROFILE: %d %s", code, h.err.String())
	}
	delete(h.vars, account.ProfileEnvVar)
	if code := h.run(Profiles, "", "--set-default", "lab"); code != ExitOK || !activeIs(h.out.String(), "lab") {
		t.Fatalf("--set-default: %d\n%s%s", code, h.out.String(), h.err.String())
	}

	if code := h.run(Logout, "", "--profile", "work"); code != ExitOK {
		t.Fatalf("logout: %d %s", code, h.err.String())
	}
	if _, err := h.kr.Get(token.Service, "work"); !errors.Is(err, token.ErrNotFound) {
		t.Fatal("token still in the keyring after logout")
	}
	st := h.store()
	if p, _ := st.Profile("work"); p.TokenStorage != store.StorageNone {
		t.Fatalf("storage after logout = %q", p.TokenStorage)
	}
	if code := h.run(Logout, "", "--profile", "lab", "--forget"); code != ExitOK {
		t.Fatalf("logout --forget: %d %s", code, h.err.String())
	}
	if _, err := st.Profile("lab"); !errors.Is(err, store.ErrNotFound) {
		t.Fatal("--forget kept the profile")
	}
	if def, _ := st.DefaultProfile(); def.Name != "work" {
		t.Fatalf("default after forgetting lab = %q", def.Name)
	}
	if code := h.run(Logout, "", "extra"); code != ExitUsage {
		t.Fatalf("positional argument: exit %d", code)
	}
}

func activeIs(listing, name string) bool {
	for _, line := range strings.Split(listing, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "*" && f[1] == name {
			return true
		}
	}
	return false
}

func TestConnectWithTokenAlone(t *testing.T) {
	h := newHarness(t)
	st := h.store()
	if _, err := account.Open(h.env.Account(), st, ""); err == nil || !strings.Contains(err.Error(), "vaultdeck login") {
		t.Fatalf("no profiles, no token: %v", err)
	}
	h.vars[token.EnvVar] = goodToken
	conn, err := account.Open(h.env.Account(), st, "")
	if err != nil || conn.By != account.ChosenByToken || conn.Profile.Region != "us" {
		t.Fatalf("VAULTDECK_TOKEN alone: %+v, %v", conn, err)
	}
	if tok, _ := conn.Source.Token(context.Background()); tok != goodToken {
		t.Fatal("env token not used")
	}
}

// TestTokenNeverStoredOrLogged logs in, caches, logs out and in again, then
// reads the database, its WAL, every output and the captured log, looking for
// the token.
func TestTokenNeverStoredOrLogged(t *testing.T) {
	h := newHarness(t)
	st := h.store() // held open so the WAL file stays on disk to be read
	var outputs strings.Builder
	step := func(c cmd, in string, args ...string) {
		if code := h.run(c, in, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, h.err.String())
		}
		outputs.WriteString(h.out.String() + h.err.String())
	}
	step(Login, goodToken, "--profile", "work", "--region", "au")
	st.PutCache("work", "projects", []byte(`{"projects":[]}`), time.Now())
	step(Profiles, "")
	step(Logout, "")
	step(Login, goodToken)
	h.run(Login, "bad"+goodToken) // rejected; its message must not quote the token
	outputs.WriteString(h.out.String() + h.err.String())

	paths, _ := h.env.Account().Paths()
	files := map[string][]byte{"log": h.logs.Bytes(), "output": []byte(outputs.String())}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if b, err := os.ReadFile(paths.Database() + suffix); err == nil {
			files[filepath.Base(paths.Database())+suffix] = b
		}
	}
	if _, ok := files["vaultdeck.db-wal"]; !ok {
		t.Fatal("expected a WAL file to inspect")
	}
	for name, b := range files {
		if bytes.Contains(b, []byte(goodToken)) {
			t.Errorf("the token appears in %s", name)
		}
	}
	if h.logs.Len() == 0 {
		t.Error("expected some log lines to inspect")
	}
}

// TestProfilesJSON: `profiles --json` is the profiles as JSON (gh's
// `auth status --json`), each with where it connects, its access, where
// its token is kept and whether it is the default and the active one;
// --jq shapes it; the table is unchanged without it.
func TestProfilesJSON(t *testing.T) {
	h := newHarness(t)
	if code := h.run(Login, goodToken+"\n"); code != ExitOK {
		t.Fatalf("login: exit %d: %s", code, h.err.String())
	}
	if code := h.run(Login, goodToken+"\n", "--profile", "eu-prod", "--region", "eu", "--read-only"); code != ExitOK {
		t.Fatalf("login eu-prod: exit %d: %s", code, h.err.String())
	}
	if code := h.run(Profiles, "", "--json"); code != ExitOK {
		t.Fatalf("profiles --json: exit %d: %s", code, h.err.String())
	}
	var got []struct {
		Name, Endpoint, Region, TokenStorage string
		ReadOnly                             bool `json:"read_only"`
		Default, Active                      bool
	}
	if err := json.Unmarshal(h.out.Bytes(), &got); err != nil {
		t.Fatalf("profiles --json is not JSON (%v): %q", err, h.out.String())
	}
	if len(got) != 2 || got[0].Name != "default" || !got[0].Default || !got[0].Active || got[0].ReadOnly ||
		got[1].Name != "eu-prod" || got[1].Region != "eu" || !got[1].ReadOnly || got[1].Active {
		t.Errorf("profiles --json: %+v", got)
	}
	if code := h.run(Profiles, "", "--jq", ".[] | .name"); code != ExitOK || h.out.String() != "default\neu-prod\n" {
		t.Errorf("profiles --jq .[] | .name: exit %d, %q", code, h.out.String())
	}
	if code := h.run(Profiles, ""); code != ExitOK || !strings.Contains(h.out.String(), "* default") || !strings.Contains(h.out.String(), "active profile") {
		t.Errorf("profiles: exit %d, %q", code, h.out.String())
	}
}
