// Package api is the HTTP client of the workspace's JSON API: one method per
// endpoint, tolerant decoding, a client-side request budget shared across
// the process, retries that respect the service's limits, and errors a
// caller can switch on. It knows nothing about terminals.
package api

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"
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
	Logger     *slog.Logger // nil -> discard
	Clock      Clock        // nil -> the system clock
	Retry      RetryPolicy  // zero -> 5 retries, 3 minutes of total waiting
	UserAgent  string       // nil -> "vaultdeck"
	Timeouts   Timeouts     // zero fields take the defaults (10s connect, 30s first byte, 30s body stall)
}

// Client calls the API. It is safe for concurrent use.
type Client struct {
	base      string
	hc        *http.Client
	tokens    TokenSource
	limits    Limits
	budgets   *Budgets
	log       *slog.Logger
	clock     Clock
	retry     RetryPolicy
	timeouts  Timeouts
	userAgent string

	// lastToken is the hash key part of the most recent token, so Budget
	// (which has no context to ask the token source) finds the right bucket.
	lastToken atomic.Pointer[string]
	// red is the redactor of the current token (its pattern is built once
	// per token, not per request).
	red atomic.Pointer[redactor]
	// perms caches whoami's permissions, for naming what a 403 lacks.
	perms atomic.Pointer[permCache]
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
		log:       cfg.Logger,
		clock:     cfg.Clock,
		retry:     cfg.Retry.normalized(),
		timeouts:  cfg.Timeouts.normalized(),
		userAgent: cfg.UserAgent,
	}
	if c.budgets == nil {
		c.budgets = NewBudgets()
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.clock == nil {
		c.clock = systemClock{}
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
	return c, nil
}

// newHTTPClient verifies TLS always; a CA file only adds trust roots.
func newHTTPClient(caFile string, connect time.Duration) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	if connect > 0 {
		tr.DialContext = (&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext
		tr.TLSHandshakeTimeout = connect
	}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
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
	return c.budgets.status(budgetKeyHashed(c.base, h, cat), c.limits.of(cat), c.clock.Now())
}

// call is one request: where it goes and how to build its body.
type call struct {
	ep    endpoint
	path  string // escaped, relative to the base
	query url.Values
	// body builds a fresh body for each attempt; finish (may be nil) is
	// called once the transport is done with it and reports a failure of
	// the body producer, which then wins over the transport's error.
	body func() (rc io.ReadCloser, contentType string, finish func() error, err error)
	// length is the body's exact size when known (> 0), sent as
	// Content-Length instead of a chunked body.
	length int64
	keep   []int // non-2xx statuses the caller interprets itself
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
		red := newRedactor(tok)
		return "", &Error{Kind: KindUnauthorized, Endpoint: ep.String(),
			Message: "could not get the API token: " + red.safeText(err.Error(), 300)}
	}
	h := tokenHash(tok)
	if p := c.lastToken.Load(); p == nil || *p != h {
		c.lastToken.Store(&h)
		c.tokenOK.Store(false)
	}
	if r := c.red.Load(); r == nil || r.secret != tok {
		nr := newRedactor(tok)
		c.red.Store(&nr)
	}
	return tok, nil
}

// currentRedactor is the redactor of the token last used (none before the
// first request).
func (c *Client) currentRedactor() redactor {
	if r := c.red.Load(); r != nil {
		return *r
	}
	return redactor{}
}

func canceled(ep endpoint, cause error) *Error {
	return &Error{Kind: KindCanceled, Endpoint: ep.String(), Err: cause}
}

// send runs a call: token, budget, request, retries. It returns a response
// whose status is 2xx or in cl.keep; the caller reads and closes its body.
func (c *Client) send(ctx context.Context, cl call) (*http.Response, redactor, error) {
	if err := ctx.Err(); err != nil {
		return nil, redactor{}, canceled(cl.ep, err)
	}
	tok, err := c.token(ctx, cl.ep)
	if err != nil {
		return nil, redactor{}, err
	}
	red := c.currentRedactor()
	key := budgetKeyHashed(c.base, tokenHash(tok), cl.ep.cat)
	limit := c.limits.of(cl.ep.cat)
	bo := newBackoff()
	var waited time.Duration
	timeouts := 0
	for attempt := 0; ; attempt++ {
		if err := c.waitBudget(ctx, cl.ep, key, limit); err != nil {
			return nil, red, err
		}
		resp, err := c.attempt(ctx, cl, tok, red, key, limit, attempt)
		if err != nil {
			var te *Error
			if !errors.As(err, &te) || te.Kind != KindTimeout || !cl.ep.idempotent || timeouts >= maxTimeoutRetries {
				return nil, red, err
			}
			timeouts++
			wait := min(bo.NextBackOff(), maxBackoff)
			c.observeWait(ctx, Wait{Endpoint: cl.ep.String(), Reason: WaitBackoff, For: wait})
			c.log.LogAttrs(ctx, slog.LevelDebug, "api retry after timeout",
				slog.String("method", cl.ep.method), slog.String("path", red.String(cl.path)),
				slog.Duration("wait", wait), slog.Int("attempt", attempt+1))
			if err := c.clock.Sleep(ctx, wait); err != nil {
				return nil, red, canceled(cl.ep, err)
			}
			continue
		}
		if resp.StatusCode/100 == 2 {
			c.tokenOK.Store(true)
			return resp, red, nil
		}
		if slices.Contains(cl.keep, resp.StatusCode) {
			return resp, red, nil
		}
		body := readErrorBody(resp)
		apiErr := c.statusError(cl.ep, resp.StatusCode, body, red)
		if !retryable(resp.StatusCode) {
			c.refineForbidden(ctx, cl.ep, apiErr)
			return nil, red, apiErr
		}
		now := c.clock.Now()
		wait, ok := retryAfter(resp.Header, now)
		reason := WaitRetryAfter
		if !ok {
			wait = min(bo.NextBackOff(), maxBackoff)
			reason = WaitBackoff
		}
		apiErr.RetryAfter = wait
		if resp.StatusCode == http.StatusTooManyRequests {
			c.budgets.block(key, now.Add(wait)) // everyone sharing the bucket holds off
		}
		if !cl.ep.idempotent || attempt >= c.retry.MaxRetries || waited+wait > c.retry.MaxWait {
			return nil, red, apiErr
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api retry",
			slog.String("method", cl.ep.method), slog.String("path", red.String(cl.path)),
			slog.Int("status", resp.StatusCode), slog.Duration("wait", wait), slog.Int("attempt", attempt+1))
		c.observeWait(ctx, Wait{Endpoint: cl.ep.String(), Reason: reason, Status: resp.StatusCode, For: wait})
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return nil, red, canceled(cl.ep, err)
		}
		waited += wait
	}
}

// waitBudget blocks until the category's budget allows one more request.
func (c *Client) waitBudget(ctx context.Context, ep endpoint, key string, limit int) error {
	for {
		d, ok := c.budgets.reserve(key, limit, c.clock.Now())
		if ok {
			return nil
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api budget wait",
			slog.String("category", string(ep.cat)), slog.Duration("wait", d))
		c.observeWait(ctx, Wait{Endpoint: ep.String(), Reason: WaitBudget, Category: ep.cat, Limit: limit, For: d})
		if err := c.clock.Sleep(ctx, d); err != nil {
			return canceled(ep, err)
		}
	}
}

// attempt sends one HTTP request and logs it.
func (c *Client) attempt(ctx context.Context, cl call, tok string, red redactor, key string, limit, n int) (*http.Response, error) {
	u := c.base + cl.path
	if len(cl.query) > 0 {
		u += "?" + cl.query.Encode()
	}
	var body io.ReadCloser
	var ctype string
	var finish func() error
	if cl.body != nil {
		var err error
		if body, ctype, finish, err = cl.body(); err != nil {
			return nil, err
		}
	}
	// The attempt's own context carries its timers: the first-byte timer
	// starts once the request (body included: an upload takes as long as it
	// takes) has been written; the body timer is re-armed by every read.
	actx, cancel := context.WithCancelCause(ctx)
	wd := &watchdog{cancel: cancel}
	var sw *sendWatch
	if cl.body == nil {
		wd.arm(c.timeouts.FirstByte, false)
	} else {
		// While the body goes out, the stall timer is re-armed by every
		// read the transport makes of it.
		actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
			WroteRequest: func(httptrace.WroteRequestInfo) { wd.arm(c.timeouts.FirstByte, false) },
		})
	}
	req, err := http.NewRequestWithContext(actx, cl.ep.method, u, body)
	if err != nil {
		wd.stop()
		cancel(nil)
		if finish != nil {
			_ = finish()
		}
		return nil, &Error{Kind: KindInvalidRequest, Endpoint: cl.ep.String(), Message: red.safeText(err.Error(), 300)}
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if cl.length > 0 && body != nil {
		req.ContentLength = cl.length
	}
	if cl.body != nil && req.Body != nil && req.Body != http.NoBody {
		// Wrapped after NewRequest, which has taken the length (and a
		// GetBody for redirects) from the body's own type.
		sw = &sendWatch{rc: req.Body, wd: wd, stall: c.timeouts.BodyStall}
		req.Body = sw
	}
	start := c.clock.Now()
	resp, err := c.hc.Do(req)
	wd.stop()
	var bodyErr error
	if finish != nil {
		bodyErr = finish()
	}
	attrs := []slog.Attr{
		slog.String("method", cl.ep.method), slog.String("path", red.String(cl.path)),
		slog.Duration("duration", c.clock.Now().Sub(start)), slog.String("category", string(cl.ep.cat)),
		slog.Int("attempt", n),
	}
	if st := c.budgets.status(key, limit, c.clock.Now()); !st.Unlimited {
		attrs = append(attrs, slog.Int("budget_remaining", st.Remaining))
	}
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		c.log.LogAttrs(ctx, slog.LevelDebug, "api request failed", attrs...)
		sent := int64(-1)
		if sw != nil {
			sent = sw.n.Load()
		}
		timedOut := timeoutOf(actx, sent)
		cancel(nil)
		if bodyErr != nil {
			return nil, bodyErr
		}
		if te := asTimeout(cl.ep, timedOut); te != nil && ctx.Err() == nil {
			return nil, te
		}
		if rr := (*redirectRefused)(nil); errors.As(err, &rr) {
			e := &Error{Kind: KindRedirect, Endpoint: cl.ep.String(), Message: red.safeText(rr.Error(), 400)}
			if resp != nil {
				e.Status = resp.StatusCode
			}
			return nil, e
		}
		if ctx.Err() != nil {
			return nil, canceled(cl.ep, ctx.Err())
		}
		return nil, &Error{Kind: KindNetwork, Endpoint: cl.ep.String(),
			Message: red.safeText(err.Error(), 400), Err: redactedCause{red.String(err.Error()), err}}
	}
	c.log.LogAttrs(ctx, slog.LevelDebug, "api request", append(attrs, slog.Int("status", resp.StatusCode))...)
	wd.arm(c.timeouts.BodyStall, true)
	resp.Body = &watchedBody{rc: resp.Body, wd: wd, stall: c.timeouts.BodyStall, ctx: actx}
	return resp, nil
}

// redactedCause keeps errors.Is/As on a transport error while its text is
// the redacted one.
type redactedCause struct {
	text  string
	cause error
}

func (r redactedCause) Error() string { return r.text }
func (r redactedCause) Unwrap() error { return r.cause }
