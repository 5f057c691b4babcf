package api

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/api/redact"
)

// TokenSource yields the bearer token for each request. It is asked on
// every request so that a refreshed or re-entered token takes effect at once.
type TokenSource interface {
	Token(ctx context.Context) (string, error)
}

// StaticToken is a TokenSource holding one token (tests, environment).
type StaticToken string

// Token returns the token, or an error when it is empty.
func (s StaticToken) Token(context.Context) (string, error) {
	if s == "" {
		return "", errors.New("no API token is configured")
	}
	return string(s), nil
}

// Config configures a Client.
type Config struct {
	BaseURL    string // custom URL; https, or http only to a loopback host
	Region     string // "us" (default) | "eu" | "au"; ignored when BaseURL is set
	CAFile     string // extra PEM CA bundle, appended to the system roots
	Token      TokenSource
	HTTPClient *http.Client // optional (tests); used as given
	Limits     Limits       // client-side requests/minute; zero fields take the defaults
	Budgets    *Budgets     // shared limiter registry; nil -> a private one
	// Ledger shares the budget with every process on the machine, keyed by
	// workspace (ledger.go); nil -> the budget is this process's alone.
	Ledger    Ledger
	Logger    *slog.Logger // nil -> discard
	Clock     Clock        // nil -> the system clock
	Retry     RetryPolicy  // zero -> 5 retries, 3 minutes of total waiting
	UserAgent string       // nil -> "vaultdeck"
	Timeouts  Timeouts     // zero fields take the defaults (10s connect, 30s first byte, 30s body stall)
	// Notice is told, once per client and as one line, what the client did
	// not do as a server or the ledger asked (a Retry-After past the
	// maximum, times from the future); nil -> the log, as a warning.
	Notice func(string)
	// timers is the watchdog's clock: set only by this package's tests,
	// which run a silence out on a fake one; nil -> the real clock.
	timers timerClock
	// WrapTransport, when set, wraps the HTTP transport every attempt goes
	// through (serve counts each session's requests there); nil -> as is.
	WrapTransport func(http.RoundTripper) http.RoundTripper
	// Workspace is the workspace the profile was logged in to (workspace.go):
	// a token whoami places in another is refused; zero checks nothing.
	Workspace Workspace
}

// Client calls the API. It is safe for concurrent use.
type Client struct {
	base      string
	hc        *http.Client
	tokens    TokenSource
	limits    Limits
	budgets   *Budgets
	ledger    Ledger
	log       *slog.Logger
	clock     Clock
	timers    timerClock // the watchdog's; nil: the real clock
	retry     RetryPolicy
	timeouts  Timeouts
	userAgent string
	noticeFn  func(string)
	notes     notices
	// held bounds the entries RecycleBin holds; zero is MaxHeldEntries
	// and MaxHeldBytes. A test seam: only this package's tests set it, to
	// reach the bounds with a hundred entries.
	held heldLimits

	// lastToken is the hash key part of the most recent token, so Budget
	// (which has no context to ask the token source) finds the right bucket.
	lastToken atomic.Pointer[string]
	// red is the redactor of the current token (its pattern is built once
	// per token, not per request).
	red atomic.Pointer[redact.Redactor]
	// perms caches whoami's permissions, for naming what a 403 lacks.
	perms atomic.Pointer[permCache]
	// ws is the workspace of the current token, the ledger's key.
	ws workspaceCache
	// want is the workspace the token must answer for (Config.Workspace).
	want Workspace
	// tokenOK records that some request with the current token succeeded,
	// which narrows an ambiguous matter 401 down to a missing permission.
	tokenOK atomic.Bool
}

// New validates cfg and builds a client. It never contacts the service.
func New(cfg Config) (*Client, error) {
	base, err := ResolveBaseURL(cfg.Region, cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base:      base,
		tokens:    cfg.Token,
		limits:    cfg.Limits,
		budgets:   cfg.Budgets,
		ledger:    cfg.Ledger,
		log:       cfg.Logger,
		clock:     cfg.Clock,
		timers:    cfg.timers,
		retry:     cfg.Retry.normalized(),
		timeouts:  cfg.Timeouts.normalized(),
		userAgent: cfg.UserAgent,
		noticeFn:  cfg.Notice,
		want:      cfg.Workspace,
	}
	if c.budgets == nil {
		c.budgets = NewBudgets()
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.clock == nil {
		c.clock = SystemClock{}
	}
	if c.userAgent == "" {
		c.userAgent = "vaultdeck"
	}
	switch {
	case cfg.HTTPClient != nil && cfg.CAFile != "":
		return nil, errors.New("a CA file cannot be combined with a custom HTTP client; add the CA to that client's TLS config")
	case cfg.HTTPClient != nil:
		// A copy, so the caller's client is not changed, with the redirect
		// rule that keeps the token at home.
		hc := *cfg.HTTPClient
		hc.CheckRedirect = checkRedirect
		c.hc = &hc
	default:
		hc, err := newHTTPClient(cfg.CAFile, c.timeouts.Connect)
		if err != nil {
			return nil, err
		}
		c.hc = hc
	}
	if cfg.WrapTransport != nil {
		tr := c.hc.Transport
		if tr == nil {
			tr = http.DefaultTransport
		}
		c.hc.Transport = cfg.WrapTransport(tr)
	}
	return c, nil
}

// newHTTPClient verifies TLS always; a CA file only adds trust roots.
func newHTTPClient(caFile string, connect time.Duration) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second} // DefaultTransport's
	if connect > 0 {
		d.Timeout = connect
		tr.TLSHandshakeTimeout = connect
	}
	// Each connection is one the client watches after an answer (wire.go).
	tr.DialContext = wireDialer(d)
	tr.DialTLSContext = wireTLSDialer(d, tr.TLSClientConfig)
	tr.OnProxyConnectResponse = proxyConnect
	if caFile != "" {
		pem, err := localfile.Read(caFile, localfile.CABundle)
		if err != nil {
			return nil, fmt.Errorf("reading CA file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("CA file %s holds no PEM certificates", caFile)
		}
		tr.TLSClientConfig.RootCAs = pool
	}
	return &http.Client{Transport: tr, CheckRedirect: checkRedirect}, nil
}

// checkRedirect follows a redirect only within the origin (scheme, host and
// port) of the request that started the chain. Go drops Authorization only
// when the host name changes, so a redirect to another port of the same host
// would carry the token there; and another host's answer must not be shown
// as the API's.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return errors.New("too many redirects")
	}
	from, to := origin(via[0].URL), origin(req.URL)
	if from != to {
		return &redirectRefused{from: from, to: to}
	}
	return nil
}

// origin is scheme://host:port with the default port spelled out, so that
// https://a and https://a:443 compare equal.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// proxyConnect refuses a tunnel a proxy would not open, naming the proxy:
// the transport's own error is the status's bare text ("Forbidden").
func proxyConnect(_ context.Context, proxy *url.URL, _ *http.Request, resp *http.Response) error {
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	return fmt.Errorf("the proxy %s refused to open a tunnel to the service (%s)", proxy.Host, redact.Clean(redact.Truncate(resp.Status, 100)))
}

type redirectRefused struct{ from, to string }

func (r *redirectRefused) Error() string {
	return fmt.Sprintf("refused to follow a redirect from %s to %s: the token is sent only to the base URL's origin. Check the base URL or region (a proxy in front of the service may be redirecting)", r.from, r.to)
}

// Base returns the base URL (never containing credentials).
func (c *Client) Base() string { return c.base }

// Budget reports what is left of a category's client-side budget for this
// client's token (known after its first request; before that, a fresh one).
func (c *Client) Budget(cat Category) BudgetStatus {
	h := tokenHash("")
	if p := c.lastToken.Load(); p != nil {
		h = *p
	}
	key := budgetKeyHashed(c.base, h, cat)
	if ws := c.knownWorkspace(h); ws != "" && c.ledger != nil {
		key = workspaceKey(c.base, ws, cat)
	}
	return c.budgets.status(key, c.limits.of(cat), c.clock.Now())
}

func (c *Client) token(ctx context.Context, ep endpoint) (string, error) {
	if c.tokens == nil {
		return "", &Error{Kind: KindUnauthorized, Endpoint: ep.String(), Message: "no API token is configured; log in or set one first"}
	}
	tok, err := c.tokens.Token(ctx)
	if err == nil && strings.TrimSpace(tok) == "" {
		err = errors.New("the token is empty")
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", canceled(ep, ctx.Err())
		}
		red := redact.New(tok)
		return "", &Error{Kind: KindUnauthorized, Endpoint: ep.String(),
			Message: "could not get the API token: " + red.SafeText(err.Error(), 300)}
	}
	h := tokenHash(tok)
	if p := c.lastToken.Load(); p == nil || *p != h {
		c.lastToken.Store(&h)
		c.tokenOK.Store(false)
	}
	if r := c.red.Load(); r == nil || !r.Redacts(tok) {
		nr := redact.New(tok)
		c.red.Store(&nr)
	}
	return tok, nil
}

// currentRedactor is the redactor of the token last used (none before the
// first request).
func (c *Client) currentRedactor() redact.Redactor {
	if r := c.red.Load(); r != nil {
		return *r
	}
	return redact.Redactor{}
}
