package cli

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/console"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Connection is the one resolution of where and as whom vaultdeck talks:
// built once per command from flags, environment and profile. Its page.Conn
// (Profile: "" when the token comes from VAULTDECK_TOKEN alone; Where: the
// region, shown only when true, or the custom host) is what the console is
// handed by pointer.
type Connection struct {
	Client *api.Client
	page.Conn
	// ReadOnly: the stored profile forbids changing the workspace. The
	// console hides its mutating keys; headless commands refuse (readOnly).
	ReadOnly bool
}

// client is the API client of the one connection.
func (r *runner) client() (*api.Client, error) {
	c, err := r.connect()
	if err != nil {
		return nil, err
	}
	return c.Client, nil
}

// connect resolves, once per command, in order of precedence: flags, the
// environment, the stored profile, the defaults. Headless commands and the
// console use the same value, so what the header says is what the client
// talks to.
func (r *runner) connect() (*Connection, error) {
	if r.conn == nil && r.connErr == nil {
		r.conn, r.connErr = r.resolve()
	}
	return r.conn, r.connErr
}

func (r *runner) resolve() (*Connection, error) {
	var prof Profile
	if r.env.ResolveProfile != nil {
		p, err := r.env.ResolveProfile(r.g.Profile)
		if err != nil {
			if r.g.Profile == "" {
				return nil, err
			}
			return nil, fmt.Errorf("profile %q: %w", r.g.Profile, err)
		}
		prof = p
	}
	first := func(vals ...string) string {
		for _, v := range vals {
			if v = strings.TrimSpace(v); v != "" {
				return v
			}
		}
		return ""
	}
	cfg := api.Config{
		BaseURL:    first(r.g.BaseURL, r.env.Getenv("VAULTDECK_BASE_URL"), prof.BaseURL),
		Region:     first(r.g.Region, r.env.Getenv("VAULTDECK_REGION"), prof.Region),
		CAFile:     first(r.g.CAFile, r.env.Getenv("VAULTDECK_CA_FILE"), prof.CAFile),
		HTTPClient: r.env.HTTPClient,
		Budgets:    r.env.Budgets,
		Ledger:     r.env.Ledger,
		Logger:     r.env.Logger,
		Limits:     r.env.Limits,
		Clock:      r.env.Clock,
	}
	// What the client did not do as the service or the budget's record
	// asked (a Retry-After past the maximum, times from the future) is one
	// line on stderr; the console owns the terminal, so it is left to the
	// log there.
	if r.cmd != "console" {
		cfg.Notice = func(s string) { fmt.Fprintf(r.env.Stderr, "vaultdeck %s: %s\n", r.cmd, s) }
	}
	// The user's cap below the service's limits: the flag, else the
	// profile's setting (above them only for a simulator on this machine).
	local := loopback(cfg.BaseURL)
	if m := r.g.MaxRate; m.set() {
		cfg.Limits = m.apply(cfg.Limits, local)
	} else {
		cfg.Limits = prof.MaxRate.apply(cfg.Limits, local)
	}
	// One setting for how long the service may stay silent: before its
	// first byte and within a body (0: the defaults). The bound on one
	// whole answer follows it (api.TotalFactor times), so it is one knob.
	cfg.Timeouts.FirstByte = cmp.Or(r.g.Timeout, prof.Timeout)
	cfg.Timeouts.BodyStall = cfg.Timeouts.FirstByte
	if r.g.BaseURL != "" && r.g.Region != "" {
		return nil, errors.New("give either --base-url or --region, not both")
	}
	if r.env.TokenSource != nil {
		ts, err := r.env.TokenSource(r.g.Profile)
		if err != nil {
			return nil, err
		}
		cfg.Token = ts
	} else {
		tok := strings.TrimSpace(r.env.Getenv("VAULTDECK_TOKEN"))
		if tok == "" {
			return nil, errors.New("no API token: set VAULTDECK_TOKEN (or log in with `vaultdeck login`)")
		}
		cfg.Token = api.StaticToken(tok)
	}
	client, err := api.New(cfg)
	if err != nil {
		return nil, err
	}
	r.guard(client)
	c := &Connection{Client: client, Conn: page.Conn{Where: console.Where(cfg.BaseURL, cfg.Region, client.Base())}}
	if prof.Stored {
		c.Profile = prof.Name
		c.ReadOnly = prof.ReadOnly
	}
	return c, nil
}

// refuseReadOnly is asked by every headless command that changes the
// workspace, before its first request: a read-only profile must not be
// able to do headless what its console hides. ok is false when the command
// must stop with code. A connection that cannot be resolved is left to the
// command's own client() call, so its error reads as before.
func (r *runner) refuseReadOnly() (code int, ok bool) {
	c, err := r.connect()
	if err != nil || !c.ReadOnly {
		return ExitOK, true
	}
	fmt.Fprintf(r.env.Stderr, "vaultdeck %s: profile %q is read-only; this command changes the workspace\n", r.cmd, c.Profile)
	return ExitUsage, false
}
