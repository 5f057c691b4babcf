package cli

import (
	"fmt"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
)

// Connection is the one resolution of where and as whom vaultdeck talks,
// built once per command by api/account from flags, environment and
// profile: the client, the resolved account and its connection value
// (what the console is handed by pointer).
type Connection struct {
	Client  *api.Client
	Account *account.Resolved
	Conn    *account.Conn
}

// client is the API client of the one connection.
func (r *runner) client() (*api.Client, error) {
	c, err := r.connect()
	if err != nil {
		return nil, err
	}
	return c.Client, nil
}

// connect resolves once per command: headless commands and the console use
// the same value, so what the header says is what the client talks to.
func (r *runner) connect() (*Connection, error) {
	if r.conn == nil && r.connErr == nil {
		r.conn, r.connErr = r.resolve()
	}
	return r.conn, r.connErr
}

// flags are the command line's part of the resolution.
func (r *runner) flags() account.Flags { return r.g.Flags }

// resolve is account.Resolve on this invocation's flags and environment.
func (r *runner) resolve() (*Connection, error) { return r.resolveWith(r.flags()) }

func (r *runner) resolveWith(f account.Flags) (*Connection, error) {
	var chosen *account.Chosen
	if r.env.Account != nil {
		c, err := r.env.Account(r.g.Profile)
		if err != nil {
			if r.g.Profile == "" {
				return nil, err
			}
			return nil, fmt.Errorf("profile %q: %w", r.g.Profile, err)
		}
		chosen = c
	}
	res, err := account.Resolve(account.Request{Flags: f, Getenv: r.env.Getenv, Chosen: chosen, Themes: themeNames()})
	if err != nil {
		return nil, err
	}
	sh := account.Shared{HTTPClient: r.env.HTTPClient, Budgets: r.env.Budgets, Ledger: r.env.Ledger,
		Logger: r.env.Logger, Limits: r.env.Limits, Clock: r.env.Clock}
	// What the client did not do as the service or the budget's record
	// asked (a Retry-After past the maximum, times from the future) is one
	// line on stderr; the console owns the terminal, so it is left to the
	// log there.
	if r.cmd != "console" {
		sh.Notice = func(s string) { fmt.Fprintf(r.env.Stderr, "vaultdeck %s: %s\n", r.cmd, s) }
	}
	client, err := res.Client(sh)
	if err != nil {
		return nil, err
	}
	r.guard(client)
	return &Connection{Client: client, Account: res, Conn: res.Conn(client.Base())}, nil
}

// refuseReadOnly is asked by every headless command that changes the
// workspace, before its first request: a read-only profile must not be
// able to do headless what its console hides. ok is false when the command
// must stop with code. A connection that cannot be resolved is left to the
// command's own client() call, so its error reads as before.
func (r *runner) refuseReadOnly() (code int, ok bool) {
	c, err := r.connect()
	if err != nil || !c.Account.ReadOnly {
		return ExitOK, true
	}
	fmt.Fprintf(r.env.Stderr, "vaultdeck %s: profile %q is read-only; this command changes the workspace\n", r.cmd, c.Conn.Profile)
	return ExitUsage, false
}
