package account

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/api/token/tokentest"
	"github.com/vaultdeck/vaultdeck/store"
)

const goodConfig = `# written by configuration management
default: filed
profiles:
  filed:
    base-url: http://127.0.0.1:9/
    read-only: no
    timeout: 45s
    max-rate: 80%
    theme: mono
    workspace-id: ws-1
  eu-prod:
    region: eu
    token-storage: file
    ca-file: /etc/ssl/firm.pem
  bare:
`

func TestTheConfigFileReadsItsValuesWithTheirLines(t *testing.T) {
	c, err := ParseConfig("config.yaml", []byte(goodConfig))
	if err != nil {
		t.Fatal(err)
	}
	if c.Default != "filed" || c.DefaultLine != 2 || len(c.Profiles) != 3 {
		t.Fatalf("%+v", c)
	}
	f := c.Profile("filed")
	want := map[string]string{"base-url": "http://127.0.0.1:9", "read-only": "false", "timeout": "45s", "max-rate": "80%", "theme": "mono", "workspace-id": "ws-1"}
	for k, v := range want {
		if f.Values[k] != v {
			t.Errorf("filed.%s = %q, want %q", k, f.Values[k], v)
		}
	}
	if f.Line != 4 || f.Lines["timeout"] != 7 || f.Lines["workspace-id"] != 10 {
		t.Errorf("lines: %d %v", f.Line, f.Lines)
	}
	if at, ok := c.Owns("eu-prod", "ca-file"); !ok || at != "config.yaml:14" {
		t.Errorf("Owns(eu-prod, ca-file) = %q, %v", at, ok)
	}
	if _, ok := c.Owns("eu-prod", "timeout"); ok {
		t.Error("the file owns a key it does not set")
	}
	if c.Profile("bare") == nil || len(c.Profile("bare").Values) != 0 {
		t.Errorf("bare: %+v", c.Profile("bare"))
	}
	for _, empty := range []string{"", "# nothing yet\n", "---\n"} {
		if c, err := ParseConfig("c", []byte(empty)); err != nil || len(c.Profiles) != 0 {
			t.Errorf("%q: %+v, %v", empty, c, err)
		}
	}
}

// Each mistake is one error naming the file, the line and the key; a key
// that would hold a token is refused without repeating its value.
func TestTheConfigFileRefusesWhatItCannotMean(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"unknown top-level key", "default: a\ncolours: dark\n", "config.yaml:2: colours: unknown key"},
		{"unknown profile key", "profiles:\n  a:\n    region: eu\n    colour: red\n", "config.yaml:4: profiles.a.colour: unknown key; a profile's keys are region, base-url"},
		{"timeout of zero", "profiles:\n  a:\n    timeout: 0s\n", "config.yaml:3: profiles.a.timeout: timeout takes a positive duration"},
		{"timeout without a unit", "profiles:\n  a:\n    timeout: 30\n", "config.yaml:3: profiles.a.timeout: timeout takes a positive duration"},
		{"negative stuck-after", "profiles:\n  a:\n\n    stuck-after: -5m\n", "config.yaml:4: profiles.a.stuck-after"},
		{"max-rate over the limit", "profiles:\n  a:\n    max-rate: 180%\n", "config.yaml:3: profiles.a.max-rate"},
		{"unknown region", "profiles:\n  a:\n    region: mars\n", `config.yaml:3: profiles.a.region: the region "mars" is unknown`},
		{"plain http to a remote host", "profiles:\n  a:\n    base-url: http://vault.example.com\n", "config.yaml:3: profiles.a.base-url: the base URL http://vault.example.com uses plain HTTP"},
		{"region and base-url", "profiles:\n  a:\n    region: eu\n    base-url: https://x.example\n", "config.yaml:4: profiles.a: give region or base-url, not both"},
		{"read-only maybe", "profiles:\n  a:\n    read-only: maybe\n", `config.yaml:3: profiles.a.read-only: read-only takes true or false (got "maybe")`},
		{"relative CA file", "profiles:\n  a:\n    ca-file: certs/ca.pem\n", "config.yaml:3: profiles.a.ca-file: \"certs/ca.pem\" is not an absolute path"},
		{"token storage plaintext", "profiles:\n  a:\n    token-storage: plaintext\n", "config.yaml:3: profiles.a.token-storage"},
		{"a bad profile name", "profiles:\n  bad name:\n    region: eu\n", "config.yaml:2: profiles.bad name: the profile name"},
		{"a bad default", "default: -x\n", "config.yaml:1: default: the profile name"},
		{"profiles as a list", "profiles:\n  - a\n  - b\n", "config.yaml:2: profiles: profiles must be a mapping"},
		{"a list as a value", "profiles:\n  a:\n    region: [eu, us]\n", "config.yaml:3: profiles.a.region: must be a single value (a list found)"},
		{"an empty value", "profiles:\n  a:\n    region:\n", "profiles.a.region: has no value"},
		{"the file a list", "- a\n", "config.yaml:1: the file must be a mapping"},
		{"two documents", "default: a\n---\ndefault: b\n", "config.yaml:3: holds more than one YAML document"},
		{"a syntax error", "profiles:\n  a:\n    region: eu\n   timeout: [\n", "config.yaml:4: not YAML vaultdeck can read"},
		{"a repeated key", "profiles:\n  a:\n    region: eu\n    region: au\n", "config.yaml:4: not YAML vaultdeck can read"},
	}
	for _, tc := range cases {
		_, err := ParseConfig("config.yaml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant it to contain %q", tc.name, err, tc.want)
		}
		var ce *ConfigError
		if err != nil && !errors.As(err, &ce) {
			t.Errorf("%s: %T is not a ConfigError", tc.name, err)
		}
	}
	const secret = "vdsim_admin_0636d5afcc744eb6"
	for _, tc := range []struct{ text, key string }{
		{"token: " + secret + "\n", "1: token:"},
		{"profiles:\n  a:\n    token: " + secret + "\n", "3: profiles.a.token:"},
		{"profiles:\n  a:\n    api_key: " + secret + "\n", "3: profiles.a.api_key:"},
		{"profiles:\n  a:\n    API-Token: '" + secret + "'\n", "3: profiles.a.API-Token:"},
		{"profiles:\n  a:\n    password: " + secret + "\n", "3: profiles.a.password:"},
		{"profiles:\n  a:\n    client_secret: " + secret + "\n", "3: profiles.a.client_secret:"},
		{"profiles:\n  a:\n    bearer: " + secret + "\n    region: [\n", ""}, // a syntax error after it
	} {
		_, err := ParseConfig("config.yaml", []byte(tc.text))
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Errorf("%q: %v (want refused, without the value)", tc.text, err)
			continue
		}
		if tc.key != "" && (!errors.Is(err, ErrTokenInConfig) || !strings.Contains(err.Error(), tc.key) || !strings.Contains(err.Error(), "never kept in the configuration file")) {
			t.Errorf("%q: %v; want ErrTokenInConfig at %q", tc.text, err, tc.key)
		}
	}
}

// The file sits in the configuration directory ($XDG_CONFIG_HOME/vaultdeck)
// and is read through localfile's bound: a FIFO there is refused at once.
func TestTheConfigFileIsFoundUnderXDGAndReadWithABound(t *testing.T) {
	cfgHome, dataHome := t.TempDir(), t.TempDir()
	e := Env{Getenv: env(map[string]string{"XDG_CONFIG_HOME": cfgHome, "XDG_DATA_HOME": dataHome, "HOME": t.TempDir()})}
	path, err := ConfigFilePath(e)
	if err != nil || path != filepath.Join(cfgHome, "vaultdeck", "config.yaml") {
		t.Fatalf("ConfigFilePath = %q, %v", path, err)
	}
	if c, err := ReadConfigFile(e); c != nil || err != nil {
		t.Fatalf("no file: %+v, %v", c, err)
	}
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadConfigFile(e); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("a FIFO as the configuration file: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO as the configuration file still blocks after 10 s")
	}
}

// The precedence: flag, environment, the file, the store, the default;
// a profile only the file declares is chosen and resolved like a stored
// one, its token from the keyring.
func TestTheFileWinsOverTheStoreAndLosesToTheEnvironment(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{"VAULTDECK_HOME": home}
	kr := tokentest.NewMemoryKeyring()
	e := Env{Getenv: env(vars), Keyring: kr}
	st, err := store.Open(filepath.Join(home, "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SaveProfile(store.Profile{Name: "eu-prod", Region: "us", TokenStorage: store.StorageKeyring, WorkspaceID: "ws-9", WorkspaceName: "Stored"}); err != nil {
		t.Fatal(err)
	}
	st.SetSetting("eu-prod", KeyTimeout, "5s")
	st.SetSetting("eu-prod", KeyStuckAfter, "2h")
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(goodConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	kr.Set(token.Service, "filed", "tok-filed-0123456789")

	c, err := Open(e, st, "")
	if err != nil {
		t.Fatal(err)
	}
	if c.Profile.Name != "filed" || c.By != ChosenByDefault || !c.Profile.IsDefault {
		t.Fatalf("the file's default: %+v by %s", c.Profile, c.By)
	}
	r, err := Resolve(Request{Chosen: c, Getenv: e.Getenv, Themes: []string{"auto", "mono"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.BaseURL != "http://127.0.0.1:9" || r.Timeout != 45*time.Second || r.Theme != "mono" || r.ReadOnly || r.Workspace.ID != "ws-1" {
		t.Errorf("a profile only the file declares: %+v", r)
	}
	if tok, err := r.Token.Token(t.Context()); err != nil || tok != "tok-filed-0123456789" {
		t.Errorf("its token from the keyring: %q, %v", tok, err)
	}
	if _, err := Resolve(Request{Chosen: c, Getenv: e.Getenv, Themes: []string{"auto", "dark"}}); err == nil ||
		!strings.Contains(err.Error(), "config.yaml:9: theme: there is no theme \"mono\"") {
		t.Errorf("a theme the console does not know: %v", err)
	}

	c, err = Open(e, st, "eu-prod")
	if err != nil {
		t.Fatal(err)
	}
	r, _ = Resolve(Request{Chosen: c, Getenv: e.Getenv})
	if r.Region != "eu" || r.CAFile != "/etc/ssl/firm.pem" || r.Timeout != 5*time.Second || c.Settings.StuckAfter != 2*time.Hour ||
		c.Profile.TokenStorage != store.StorageFile || r.Workspace.ID != "ws-9" {
		t.Errorf("file over store (region, ca-file, token-storage from the file; timeout, stuck-after, workspace from the store): %+v %+v", r, c.Profile)
	}
	vars["VAULTDECK_REGION"] = "au"
	r, _ = Resolve(Request{Chosen: c, Getenv: e.Getenv, Flags: Flags{Timeout: time.Minute}})
	if r.Region != "au" || r.Timeout != time.Minute {
		t.Errorf("environment and flag over the file: %+v", r)
	}

	all, _, err := AllProfiles(e, st)
	if err != nil || len(all) != 3 || all[0].Name != "bare" || all[1].Name != "eu-prod" || all[2].Name != "filed" || !all[2].IsDefault || all[1].IsDefault {
		t.Errorf("AllProfiles: %+v, %v", all, err)
	}

	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("default: nobody\n"), 0o600)
	if _, err := Open(e, st, ""); err == nil || !strings.Contains(err.Error(), `config.yaml:1: default: names profile "nobody"`) {
		t.Errorf("a default nobody declared: %v", err)
	}
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("profiles:\n  x:\n    token: abcdefgh\n"), 0o600)
	if _, err := Open(e, st, "eu-prod"); !errors.Is(err, ErrTokenInConfig) {
		t.Errorf("every command refuses a file with a token: %v", err)
	}
}

// serve binds a profile the file declares as it binds a stored one: its
// endpoint and settings from the file, its token from the file it opts in
// to (serve reads no environment or keyring).
func TestServeBindsAProfileTheFileDeclares(t *testing.T) {
	home := t.TempDir()
	e := Env{Getenv: env(map[string]string{"VAULTDECK_HOME": home})}
	st, err := store.Open(filepath.Join(home, "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("profiles:\n  hub:\n    base-url: http://127.0.0.1:9\n    token-storage: file\n    read-only: true\n    timeout: 12s\n"), 0o600)
	os.MkdirAll(filepath.Join(home, "tokens"), 0o700)
	os.WriteFile(filepath.Join(home, "tokens", "hub.token"), []byte("tok-hub-0123456789\n"), 0o600)
	c, err := OpenBound(e, st, "hub")
	if err != nil {
		t.Fatal(err)
	}
	if c.Profile.BaseURL != "http://127.0.0.1:9" || !c.Profile.ReadOnly || c.Settings.Timeout != 12*time.Second {
		t.Errorf("the bound profile: %+v %+v", c.Profile, c.Settings)
	}
	if tok, err := c.Source.Token(t.Context()); err != nil || tok != "tok-hub-0123456789" {
		t.Errorf("its token from the file it opts in to: %q, %v", tok, err)
	}
	if _, err := OpenBound(e, st, "nobody"); err == nil || !strings.Contains(err.Error(), "not configured on this server") {
		t.Errorf("an unknown profile: %v", err)
	}
}
