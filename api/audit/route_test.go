package audit_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
)

// TestRouteArgRoundTrips: whatever a view asks the audit view for (the
// activity view's bar or mark, the bin's deletion), the audit view reads
// back the same route: values with spaces (a forwarded address list, a
// display name), quotes, backslashes, "..", "@" or "=" in a type, a user
// without "@", a type that looks like a date, an address that is not
// one. Before, a value with a space was left out and the list was wider
// than the mark.
func TestRouteArgRoundTrips(t *testing.T) {
	at := time.Date(2026, 11, 20, 3, 53, 0, 123456000, time.UTC)
	cases := []audit.Route{
		{At: at, Until: at.Add(time.Hour), Type: "api:vault_delete_project", User: "eve@firm.test", IP: "203.0.113.9"},
		{At: at, User: "Eve Adams <eve@firm.test>"},
		{At: at, Until: at.Add(time.Hour), IP: "10.0.0.1, 10.0.0.2"},
		{Type: "api:vault delete project"},
		{User: "svc-account"},
		{Type: "team@ops"},
		{Type: "10.0.0.1"},
		{Type: "2026-11-01"},
		{Type: "36h"},
		{Type: "a..b"},
		{User: `it's "quoted" \ here`},
		{IP: "unknown"},
		{Type: "type=odd", User: "user=x@y", IP: "ip=z"},
		{At: at},
	}
	rng := rand.New(rand.NewPCG(27, 4))
	alphabet := []rune(` a@.:-_/"'\=Z9é	`)
	word := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		return strings.TrimSpace(b.String())
	}
	for range 300 {
		cases = append(cases, audit.Route{Type: word(), User: word(), IP: word()})
	}
	for _, want := range cases {
		arg := want.Arg()
		got, err := audit.ParseRoute(arg, at)
		if err != nil {
			t.Errorf("%+v: %q does not read back: %v", want, arg, err)
			continue
		}
		if !got.At.Equal(want.At) || !got.Until.Equal(want.Until) || got.Type != want.Type || got.User != want.User || got.IP != want.IP {
			t.Errorf("%q reads back as\n %+v, want\n %+v", arg, got, want)
		}
	}
}
