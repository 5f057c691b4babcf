// Package simtest starts the simulator for a test and hands back what a
// test needs of it: the server, its base URL, its tokens and a ready
// client. Every test that talks to the simulator through the api client
// starts it here, so the harness is written once: the server is closed by
// t.Cleanup, the client's own rate limits are lifted unless the test is
// about them, and a test that waits can share the simulator's clock.
package simtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// Options say what to start; the zero value is a simulator of sim's zero
// options and a client with the admin token and no client-side limits.
type Options struct {
	// Sim configures the simulator, as sim.New takes it.
	Sim sim.Options
	// Server, when set, is served instead of a new simulator (a test that
	// reads one simulator through several servers or clients).
	Server *sim.Server
	// Token names the simulator's token the client sends; "" is "admin".
	Token string
	// Client is the client's configuration. Start fills in BaseURL and
	// Token (when nil), and lifts every client-side limit unless
	// DefaultLimits is set: zero Limits fields then take the defaults.
	Client        api.Config
	DefaultLimits bool
	// SimClock gives the client the simulator's clock: a wait (a budget,
	// a 429's Retry-After) advances the simulator instead of sleeping, so
	// rate-limit windows pass at once. A Client.Clock wins over it.
	SimClock bool
	// Wrap, when set, stands between the test server and the simulator
	// (next): to count requests or answer some in the simulator's place.
	Wrap func(next http.Handler) http.Handler
}

// Env is a started simulator and its client.
type Env struct {
	Sim    *sim.Server
	URL    string      // the base URL (http://127.0.0.1:port)
	Client *api.Client // the client of Options.Token
	// HTTP is a plain HTTP client of the server, closed with it: for raw
	// requests, and for clients that should share its connections.
	HTTP *http.Client
	// Clock is the client's clock when Options.SimClock asked for it.
	Clock *Clock
}

// Start starts the simulator behind an httptest server closed by
// t.Cleanup, and builds the client.
func Start(t testing.TB, o Options) *Env {
	t.Helper()
	e := &Env{Sim: o.Server}
	if e.Sim == nil {
		e.Sim = sim.New(o.Sim)
	}
	var h http.Handler = e.Sim
	if o.Wrap != nil {
		h = o.Wrap(e.Sim)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	e.URL, e.HTTP = srv.URL, srv.Client()
	cfg := o.Client
	if o.SimClock && cfg.Clock == nil {
		e.Clock = &Clock{Sim: e.Sim}
		cfg.Clock = e.Clock
	}
	if !o.DefaultLimits {
		cfg.Limits = Unlimited()
	}
	token := o.Token
	if token == "" {
		token = "admin"
	}
	e.Client = e.NewClient(t, token, cfg)
	return e
}

// Unlimited lifts every client-side limit (negative: no limit).
func Unlimited() api.Limits { return api.Limits{Vault: -1, Audit: -1, Matters: -1} }

// Token is the value of the simulator's token of that name.
func (e *Env) Token(name string) string { return e.Sim.Token(name) }

// NewClient builds another client of the simulator: cfg as given, with
// the base URL, and the token of that name when cfg has none.
func (e *Env) NewClient(t testing.TB, token string, cfg api.Config) *api.Client {
	t.Helper()
	cfg.BaseURL = e.URL
	if cfg.Token == nil {
		cfg.Token = api.StaticToken(e.Sim.Token(token))
	}
	c, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Clock is a client clock that is the simulator's: Now is the
// simulator's time, and Sleep advances the simulator by the wait at once.
type Clock struct{ Sim *sim.Server }

// Now is the simulator's time.
func (c *Clock) Now() time.Time { return c.Sim.Now() }

// Sleep advances the simulator by d, unless ctx has ended.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.Sim.Advance(d)
	return nil
}
