package account

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

func TestMaxRateApplies(t *testing.T) {
	for _, c := range []struct {
		in   string
		want api.Limits
	}{
		{"80%", api.Limits{Vault: 8, Audit: 48, Matters: 120}},
		{"6", api.Limits{Vault: 6, Audit: 6, Matters: 6}},
		{"500", api.Limits{Vault: 10, Audit: 60, Matters: 150}},
		{"1%", api.Limits{Vault: 1, Audit: 1, Matters: 1}},
	} {
		m, err := ParseMaxRate(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Apply(api.Limits{}, false); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.in, got, c.want)
		}
	}
	// Above a limit only for a simulator on this machine; a share never lifts.
	m, _ := ParseMaxRate("500")
	if got := m.Apply(api.Limits{}, true); got != (api.Limits{Vault: 500, Audit: 500, Matters: 500}) {
		t.Errorf("500 for a local simulator: %+v, want 500 in each", got)
	}
	m, _ = ParseMaxRate("100%")
	if got := m.Apply(api.Limits{}, true); got != (api.Limits{Vault: 10, Audit: 60, Matters: 150}) {
		t.Errorf("100%% for a local simulator: %+v", got)
	}
	m, _ = ParseMaxRate("50%")
	if got := m.Apply(api.Limits{Vault: -1, Audit: -1, Matters: -1}, false); got.Vault != -1 || got.Matters != -1 {
		t.Errorf("limits off stayed off? %+v", got)
	}
}

// TestLoopbackIsOneRule: what plain HTTP may reach (CheckProfile) and whom
// a count may lift a limit for (Apply's local) are the same machines.
func TestLoopbackIsOneRule(t *testing.T) {
	for base, want := range map[string]bool{
		"http://localhost:8080": true, "http://127.0.0.1:1": true, "http://[::1]:2": true, "http://127.8.9.10": true,
		"http://example.com": false, "https://10.0.0.1": false, "http://localhost.example.com": false, "::bad": false,
	} {
		if got := Loopback(base); got != want {
			t.Errorf("Loopback(%q) = %v, want %v", base, got, want)
		}
		if base == "::bad" {
			continue
		}
		err := CheckProfile(store.Profile{Name: "p", BaseURL: base})
		if plain := base[:5] == "http:"; plain && (err == nil) != want {
			t.Errorf("CheckProfile(%q) = %v, loopback %v", base, err, want)
		}
	}
}
