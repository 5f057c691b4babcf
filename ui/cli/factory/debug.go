package factory

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Debug is --debug and --debug-file as parsed; VAULTDECK_DEBUG (1, true,
// or api for the headers too) turns it on as well.
type Debug struct {
	On   bool
	File string
}

// debugLog is one command's debug log, made the first time a client is
// (gh's GH_DEBUG, kubectl's -v=6): a line per request sent, from the
// transport, with what the client logs of its own at debug level (retries
// and their reasons, budget waits, failures). Every line is redacted of
// the token as a whole line, before it is written.
type debugLog struct {
	logger  *slog.Logger
	headers bool
	sink    *debugSink
}

// debug makes the command's debug log, or nil when it is off. The console
// draws on the terminal, so its log needs a file.
func (f *Factory) debug() (*debugLog, error) {
	f.debugOnce.Do(func() { f.dlog, f.dlogErr = f.openDebug() })
	return f.dlog, f.dlogErr
}

func (f *Factory) openDebug() (*debugLog, error) {
	var d Debug
	if f.Debug != nil {
		d = *f.Debug
	}
	env := strings.ToLower(strings.TrimSpace(f.Getenv("VAULTDECK_DEBUG")))
	headers := env == "api"
	switch env {
	case "", "0", "false", "no", "off":
	case "1", "true", "yes", "on", "api":
		d.On = true
	default:
		return nil, fmt.Errorf("VAULTDECK_DEBUG=%q: give 1 (a line per request) or api (the headers too)", env)
	}
	if !d.On && d.File == "" {
		return nil, nil
	}
	sink := &debugSink{redact: f.secret.Redact}
	switch {
	case d.File != "":
		// The file is the user's to read: only theirs, appended to, never
		// through a link an attacker put in its place.
		fh, err := os.OpenFile(d.File, os.O_WRONLY|os.O_APPEND|os.O_CREATE|oNoFollow, 0o600)
		if err != nil {
			return nil, fmt.Errorf("the debug log %s could not be opened: %w", d.File, err)
		}
		sink.w, sink.name = fh, d.File
	case f.IO.Command() == "console":
		return nil, errors.New("the console draws on the terminal, so its debug log needs a file: give --debug-file FILE")
	default:
		sink.w, sink.name, sink.prefix = f.IO.Err(), "stderr", "vaultdeck debug: "
	}
	h := slog.NewTextHandler(sink, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: debugAttr})
	return &debugLog{logger: slog.New(dropped{h}), headers: headers, sink: sink}, nil
}

// DebugErr is the debug log's first failed write: a command whose debug
// log was asked for and lost does not exit 0.
func (f *Factory) DebugErr() error {
	if f.dlog == nil {
		return nil
	}
	return f.dlog.sink.failed()
}

// debugAttr writes times in UTC to the millisecond and leaves the level
// out (every line is debug).
func debugAttr(groups []string, a slog.Attr) slog.Attr {
	switch {
	case len(groups) > 0:
	case a.Key == slog.LevelKey:
		return slog.Attr{}
	case a.Key == slog.TimeKey:
		return slog.String(slog.TimeKey, a.Value.Time().UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	return a
}

// dropped leaves out the client's own per-attempt line: the transport's
// (the same request, with its status and bytes) replaces it.
type dropped struct{ slog.Handler }

func (d dropped) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "api request" {
		return nil
	}
	return d.Handler.Handle(ctx, r)
}

func (d dropped) WithAttrs(as []slog.Attr) slog.Handler { return dropped{d.Handler.WithAttrs(as)} }
func (d dropped) WithGroup(g string) slog.Handler       { return dropped{d.Handler.WithGroup(g)} }

// debugSink writes each record (slog's handler writes one in one call) as
// one redacted line, and keeps its first failure.
type debugSink struct {
	mu     sync.Mutex
	w      io.Writer
	name   string
	prefix string
	redact func(string) string
	err    error
}

func (s *debugSink) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return len(b), nil // a log with a hole in it is worse than one that stops
	}
	if _, err := io.WriteString(s.w, s.prefix+s.redact(string(b))); err != nil {
		s.err = fmt.Errorf("the debug log (%s) could not be written: %w", s.name, err)
	}
	return len(b), nil
}

func (s *debugSink) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// transport logs each request as its answer ends: method, path with the
// query's names only (values name people and matters), status, the body's
// bytes, the time from sending to the body's end; with headers, both sides'
// headers, the Authorization value withheld.
func (d *debugLog) transport(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		start := time.Now()
		resp, err := next.RoundTrip(req)
		if err != nil {
			return resp, err // the client logs a failed attempt with its reason
		}
		attrs := []slog.Attr{slog.String("method", req.Method), slog.String("path", pathAndNames(req)),
			slog.Int("status", resp.StatusCode)}
		var hdrs []slog.Attr
		if d.headers {
			hdrs = []slog.Attr{slog.String("request_headers", headerText(req.Header)), slog.String("response_headers", headerText(resp.Header))}
		}
		resp.Body = &countedBody{ReadCloser: resp.Body, done: func(n int64) {
			d.logger.LogAttrs(req.Context(), slog.LevelDebug, "request",
				append(append(attrs, slog.Int64("bytes", n), slog.Duration("duration", time.Since(start).Round(time.Millisecond))), hdrs...)...)
		}}
		return resp, nil
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// pathAndNames is the request's path and its query's names, each with an
// empty value: "/v1/audit?since=&user=".
func pathAndNames(req *http.Request) string {
	q := req.URL.Query()
	if len(q) == 0 {
		return req.URL.Path
	}
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k+"=")
	}
	slices.Sort(names)
	return req.URL.Path + "?" + strings.Join(names, "&")
}

// headerText is h in one value, sorted, Authorization withheld.
func headerText(h http.Header) string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	for i, k := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		v := strings.Join(h[k], ",")
		if strings.EqualFold(k, "Authorization") || strings.EqualFold(k, "Proxy-Authorization") || strings.EqualFold(k, "Cookie") {
			v = "withheld"
		}
		fmt.Fprintf(&b, "%s:[%s]", k, v)
	}
	return b.String()
}

// countedBody counts what the client read of a body and says it once, at
// the end or at Close, whichever comes first.
type countedBody struct {
	io.ReadCloser
	n    int64
	once sync.Once
	done func(int64)
}

func (c *countedBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n += int64(n)
	if err != nil {
		c.once.Do(func() { c.done(c.n) })
	}
	return n, err
}

func (c *countedBody) Close() error {
	c.once.Do(func() { c.done(c.n) })
	return c.ReadCloser.Close()
}

// tellSecret is the token's one way to both redactors: the printer's
// streams and the debug log.
func (f *Factory) tellSecret(tok string) {
	f.IO.Redact(tok)
	f.secret.Set(tok)
}
