package account

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Flags are what the command line gave; a zero field was not given.
type Flags struct {
	Profile, BaseURL, Region, CAFile string
	Timeout                          time.Duration
	MaxRate                          MaxRate
	// The console's own: given only when typed.
	Theme      string
	StuckAfter time.Duration
	ReadOnly   bool
}

// Settings are f without where to connect (profile, base URL, region, CA
// file): what a typed flag overrides in a profile that keeps its own
// endpoint (serve's bound profiles).
func (f Flags) Settings() Flags {
	return Flags{Timeout: f.Timeout, MaxRate: f.MaxRate, Theme: f.Theme, StuckAfter: f.StuckAfter, ReadOnly: f.ReadOnly}
}

// Request is everything Resolve weighs, highest first: the flags, the
// environment, the chosen profile's stored values and settings, the
// defaults.
type Request struct {
	Flags Flags
	// Getenv reads VAULTDECK_BASE_URL, VAULTDECK_REGION, VAULTDECK_CA_FILE
	// and, without a chosen profile, VAULTDECK_TOKEN; nil: none (serve's
	// bound profiles read no environment).
	Getenv func(string) string
	// Chosen is the selected profile (Open, OpenBound); nil: none stored.
	Chosen *Chosen
	// Token, when set, is the token to use whatever is chosen (an SSH
	// session's own, or one login is checking before it saves it); nil:
	// the chosen profile's source, else VAULTDECK_TOKEN.
	Token api.TokenSource
	// Themes are the theme names a stored theme must be one of.
	Themes []string
}

// Default values of the console's settings (what Default says, typed).
const (
	DefaultTheme      = "auto"
	DefaultStuckAfter = 30 * time.Minute
)

// Resolved is the one answer to "which workspace, as whom, with which
// settings": what the client is built from (Config) and what the console
// shows (Conn).
type Resolved struct {
	// Name is the stored profile's name; "" when none is stored.
	Name string
	// DataProfile names the local data of this connection (the profile's,
	// or the stand-in "default" of VAULTDECK_TOKEN alone).
	DataProfile string
	ChosenBy    string

	BaseURL, Region, CAFile string
	// Timeout is how long the service may stay silent, before its first
	// byte and within a body (0: the client's default).
	Timeout time.Duration
	MaxRate MaxRate

	Theme      string
	StuckAfter time.Duration
	// Excel: the console's e writes Excel's CSV dialect (the profile's
	// excel setting; the command line's --excel is the printer's).
	Excel bool
	// ReadOnly: the flag or the stored profile forbids changing the
	// workspace.
	ReadOnly bool

	Token api.TokenSource
	// Source is Token when it is a profile's source (asked for the
	// header's warning); nil for a plain token.
	Source Source

	// Workspace is the workspace the stored profile was logged in to: the
	// client refuses a token whoami places in another.
	Workspace api.Workspace

	where     string // fixed header text (the demo's "simulator")
	unlimited bool   // the client's limits lifted (a simulator without them)
}

// Resolve applies the precedence (flag, environment, profile setting,
// default) and returns the one value the client and the console are built
// from.
func Resolve(req Request) (*Resolved, error) {
	f := req.Flags
	if f.BaseURL != "" && f.Region != "" {
		return nil, errors.New("give either --base-url or --region, not both")
	}
	getenv := func(k string) string {
		if req.Getenv == nil {
			return ""
		}
		return req.Getenv(k)
	}
	first := func(vals ...string) string {
		for _, v := range vals {
			if v = strings.TrimSpace(v); v != "" {
				return v
			}
		}
		return ""
	}
	c := req.Chosen
	var s Settings
	var stored struct{ name, baseURL, region, caFile string }
	if c != nil {
		s = c.Settings
		stored.baseURL, stored.region, stored.caFile = c.Profile.BaseURL, c.Profile.Region, c.Profile.CAFile
	}
	r := &Resolved{
		BaseURL:    first(f.BaseURL, getenv("VAULTDECK_BASE_URL"), stored.baseURL),
		Region:     first(f.Region, getenv("VAULTDECK_REGION"), stored.region),
		CAFile:     first(f.CAFile, getenv("VAULTDECK_CA_FILE"), stored.caFile),
		Timeout:    cmp.Or(f.Timeout, s.Timeout),
		MaxRate:    s.MaxRate,
		Theme:      cmp.Or(f.Theme, DefaultTheme),
		StuckAfter: cmp.Or(f.StuckAfter, s.StuckAfter, DefaultStuckAfter),
		ReadOnly:   f.ReadOnly || (c.Stored() && c.Profile.ReadOnly),
		Excel:      s.Excel,
	}
	if f.MaxRate.Set() {
		r.MaxRate = f.MaxRate
	}
	if f.Theme == "" && slices.Contains(req.Themes, s.Theme) {
		r.Theme = s.Theme
	} else if f.Theme == "" && s.ThemeAt != "" && len(req.Themes) > 0 {
		return nil, fmt.Errorf("the configuration file %s: theme: there is no theme %q; choose one of %s", s.ThemeAt, s.Theme, strings.Join(req.Themes, ", "))
	}
	if c != nil {
		r.ChosenBy, r.DataProfile = c.By, c.Profile.Name
		if c.Stored() {
			r.Name = c.Profile.Name
			r.Workspace = api.Workspace{ID: c.Profile.WorkspaceID, Name: c.Profile.WorkspaceName, Profile: c.Profile.Name}
		}
	}
	switch {
	case req.Token != nil:
		r.Token = req.Token
	case c != nil:
		r.Token, r.Source = c.Source, c.Source
	default:
		tok := strings.TrimSpace(getenv("VAULTDECK_TOKEN"))
		if tok == "" {
			return nil, errors.New("no API token: set VAULTDECK_TOKEN (or log in with `vaultdeck login`)")
		}
		r.Token = api.StaticToken(tok)
	}
	return r, nil
}

// Simulator is the profile of a simulator this process serves on loopback
// (`vaultdeck demo`): its base URL and token, named "demo"; noRateLimit
// lifts the client's limits with the simulator's, or a large demo would
// still crawl at 10 vault requests a minute.
func Simulator(baseURL string, tok api.TokenSource, noRateLimit bool) *Resolved {
	return &Resolved{Name: "demo", DataProfile: "demo", BaseURL: baseURL, Token: tok,
		Theme: DefaultTheme, StuckAfter: DefaultStuckAfter, where: SimulatorWhere, unlimited: noRateLimit}
}

// SimulatorWhere is the header's Where of Simulator's connection, whose
// profile ("demo") is stored nowhere: a command pasted from the demo names
// its endpoint, not a profile.
const SimulatorWhere = "simulator"

// Shared are the parts of a client every client of the process shares or
// the process alone decides: the budgets and ledger, the HTTP client, the
// log, the service's limits, the clock and where notices go.
type Shared struct {
	HTTPClient *http.Client
	Budgets    *api.Budgets
	Ledger     api.Ledger
	Logger     *slog.Logger
	Limits     api.Limits
	Clock      api.Clock
	Notice     func(string)
	UserAgent  string
	// WrapTransport wraps the client's HTTP transport (api.Config's).
	WrapTransport func(http.RoundTripper) http.RoundTripper
}

// Config is the API client's configuration for r on sh. The user's cap
// (max-rate) applies below the limits, above them only for a simulator on
// this machine; one timeout bounds the service's silence before its first
// byte and within a body (the whole answer follows it, api.TotalFactor
// times), so it is one knob.
func (r *Resolved) Config(sh Shared) api.Config {
	cfg := api.Config{
		BaseURL: r.BaseURL, Region: r.Region, CAFile: r.CAFile, Token: r.Token,
		HTTPClient: sh.HTTPClient, Budgets: sh.Budgets, Ledger: sh.Ledger, Logger: sh.Logger,
		Clock: sh.Clock, Notice: sh.Notice, UserAgent: sh.UserAgent, WrapTransport: sh.WrapTransport,
		Limits:    r.MaxRate.Apply(sh.Limits, Loopback(r.BaseURL)),
		Workspace: r.Workspace,
	}
	if r.unlimited {
		cfg.Limits = api.Limits{Vault: -1, Audit: -1, Matters: -1}
	}
	cfg.Timeouts.FirstByte = r.Timeout
	cfg.Timeouts.BodyStall = r.Timeout
	return cfg
}

// Client builds the API client of r on sh.
func (r *Resolved) Client(sh Shared) (*api.Client, error) { return api.New(r.Config(sh)) }

// Conn is the connection value the console shows, for a client whose
// resolved base URL is base.
func (r *Resolved) Conn(base string) *Conn {
	where := r.where
	if where == "" {
		where = Where(r.BaseURL, r.Region, base)
	}
	return &Conn{Profile: r.Name, DataProfile: r.DataProfile, Where: where}
}

// TokenWarning looks the profile's token up now, so a missing one fails
// before a console opens, and returns what the header must warn of (a
// token kept in a plain file).
func (r *Resolved) TokenWarning(ctx context.Context) (string, error) {
	if r.Source == nil {
		return "", nil
	}
	t, err := r.Source.Resolve(ctx)
	return t.Warning, err
}
