package account

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

func env(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

// TestResolvePrecedence: flag, then environment, then the profile's stored
// value or setting, then the default, for every value Resolve returns.
func TestResolvePrecedence(t *testing.T) {
	mr := func(s string) MaxRate { m, _ := ParseMaxRate(s); return m }
	prof := &Chosen{By: ChosenByDefault, Source: nil,
		Profile:  store.Profile{Name: "work", BaseURL: "https://profile.example", CAFile: "/p.pem", ReadOnly: true},
		Settings: ParseSettings(map[string]string{KeyTimeout: "5s", KeyMaxRate: "50%", KeyTheme: "mono", KeyStuckAfter: "1h"}, true)}
	vars := map[string]string{"VAULTDECK_BASE_URL": "https://env.example"}
	themes := []string{"auto", "mono", "dark"}

	r, err := Resolve(Request{Chosen: prof, Getenv: env(vars), Themes: themes})
	if err != nil {
		t.Fatal(err)
	}
	if r.BaseURL != "https://env.example" || r.CAFile != "/p.pem" || r.Timeout != 5*time.Second || r.MaxRate != mr("50%") ||
		r.Theme != "mono" || r.StuckAfter != time.Hour || !r.ReadOnly || r.Name != "work" || r.DataProfile != "work" {
		t.Errorf("environment over profile: %+v", r)
	}
	r, _ = Resolve(Request{Chosen: prof, Getenv: env(vars), Themes: themes, Flags: Flags{BaseURL: "https://flag.example",
		CAFile: "/f.pem", Timeout: time.Second, MaxRate: mr("6"), Theme: "dark", StuckAfter: time.Minute}})
	if r.BaseURL != "https://flag.example" || r.CAFile != "/f.pem" || r.Timeout != time.Second || r.MaxRate != mr("6") ||
		r.Theme != "dark" || r.StuckAfter != time.Minute {
		t.Errorf("flags over all: %+v", r)
	}
	// Defaults: no flag, no environment, no setting; a stored theme the
	// console does not know counts as unset.
	bare := &Chosen{By: ChosenByFlag, Profile: store.Profile{Name: "bare", Region: "eu"},
		Settings: ParseSettings(map[string]string{KeyTheme: "gone", KeyTimeout: "soon"}, false)}
	r, _ = Resolve(Request{Chosen: bare, Themes: themes})
	if r.Region != "eu" || r.Timeout != 0 || r.MaxRate.Set() || r.Theme != DefaultTheme || r.StuckAfter != DefaultStuckAfter || r.ReadOnly {
		t.Errorf("defaults: %+v", r)
	}
	if _, err := Resolve(Request{Chosen: bare, Flags: Flags{BaseURL: "https://x", Region: "us"}}); err == nil {
		t.Error("--base-url with --region resolved")
	}
}

// TestResolveTokenAlone: without a stored profile the token comes from
// VAULTDECK_TOKEN (or a session's own), and no header names a profile.
func TestResolveTokenAlone(t *testing.T) {
	if _, err := Resolve(Request{}); err == nil || !strings.Contains(err.Error(), "VAULTDECK_TOKEN") {
		t.Fatalf("no token: %v", err)
	}
	r, err := Resolve(Request{Getenv: env(map[string]string{"VAULTDECK_TOKEN": "tok"})})
	if err != nil || r.Token == nil {
		t.Fatalf("VAULTDECK_TOKEN: %v", err)
	}
	// A token given outright wins over the chosen profile's source: login
	// checks the token it was handed before saving it.
	fixed := api.StaticToken("checked")
	r, _ = Resolve(Request{Chosen: &Chosen{By: ChosenByFlag, Profile: store.Profile{Name: "new"}}, Token: fixed})
	if r.Token != fixed || r.Source != nil || r.Name != "new" {
		t.Errorf("a given token with a chosen profile: token %v, source %v, name %q", r.Token, r.Source, r.Name)
	}
	standIn := &Chosen{By: ChosenByToken, Profile: store.Profile{Name: "default", Region: "us", ReadOnly: true}}
	r, _ = Resolve(Request{Chosen: standIn})
	if c := r.Conn("https://api.vault.example"); c.Profile != "" || c.DataProfile != "default" || c.Where != "region us" || r.ReadOnly {
		t.Errorf("stand-in: %+v, read-only %v", c, r.ReadOnly)
	}
}

// TestConfigCarriesTheSettings: the profile's timeout bounds the service's
// silence and its max-rate caps the limits the process was given; for a
// simulator on loopback a count lifts them; the demo's simulator lifts them
// all.
func TestConfigCarriesTheSettings(t *testing.T) {
	c := &Chosen{By: ChosenByServe, Profile: store.Profile{Name: "p", BaseURL: "http://127.0.0.1:9"},
		Settings: ParseSettings(map[string]string{KeyTimeout: "5s", KeyMaxRate: "300"}, false)}
	r, _ := Resolve(Request{Chosen: c})
	cfg := r.Config(Shared{Limits: api.Limits{Audit: -1}, UserAgent: "ua"})
	if cfg.Timeouts.FirstByte != 5*time.Second || cfg.Timeouts.BodyStall != 5*time.Second || cfg.UserAgent != "ua" {
		t.Errorf("timeouts %+v, agent %q", cfg.Timeouts, cfg.UserAgent)
	}
	if cfg.Limits != (api.Limits{Vault: 300, Audit: -1, Matters: 300}) {
		t.Errorf("limits %+v", cfg.Limits)
	}
	sim := Simulator("http://127.0.0.1:9", api.StaticToken("t"), true)
	if l := sim.Config(Shared{}).Limits; l != (api.Limits{Vault: -1, Audit: -1, Matters: -1}) {
		t.Errorf("demo without limits: %+v", l)
	}
	if c := sim.Conn("http://127.0.0.1:9"); c.Where != "simulator" || c.DataProfile != "demo" {
		t.Errorf("demo conn %+v", c)
	}
}
