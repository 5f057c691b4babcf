package serve

import (
	"context"
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

// serve's --debug (issue 41): one line per request each session sends, on
// serve's stderr or --debug-file, tagged with the session (its number, as
// in its "ssh session" log line, and its key), so one admin's requests can
// be read apart from the others'. A line names the method, path, query
// parameter names (never their values), status, bytes and duration; never
// a header or a body, and every line is redacted of every token serve's
// clients use before it is written.

type debugKey struct{}

// debugSession is what a request's line names of its session.
type debugSession struct {
	n   int64
	key string
}

// withDebug tags ctx's requests with their session for the debug log.
func withDebug(ctx context.Context, ss *session) context.Context {
	return context.WithValue(ctx, debugKey{}, debugSession{n: ss.n, key: ss.key.Fingerprint})
}

// debugLine writes one request's line (nil logger: --debug is off).
func debugLine(l *slog.Logger, r *http.Request, resp *http.Response, err error, took time.Duration) {
	if l == nil {
		return
	}
	ds, ok := r.Context().Value(debugKey{}).(debugSession)
	if !ok {
		return // the scheduled crawl's, and checks': no session
	}
	names := make([]string, 0, len(r.URL.Query()))
	for k := range r.URL.Query() {
		names = append(names, k)
	}
	slices.Sort(names)
	attrs := []slog.Attr{slog.Int64("session", ds.n), slog.String("key", ds.key), slog.String("method", r.Method),
		slog.String("path", r.URL.Path), slog.String("query", strings.Join(names, ",")),
		slog.Duration("duration", took.Round(time.Millisecond))}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	} else {
		attrs = append(attrs, slog.Int("status", resp.StatusCode), slog.Int64("bytes", resp.ContentLength))
	}
	l.LogAttrs(r.Context(), slog.LevelDebug, "request", attrs...)
}

// Debug is serve's --debug, --debug-file.
type Debug struct {
	On   bool
	File string
}

// openDebug makes the debug logger (nil when off): VAULTDECK_DEBUG=1 turns
// it on too. Its lines pass the sink's redact first, set once the server
// (which knows its clients' tokens) is made, before any request.
func openDebug(d Debug, getenv func(string) string, stderr io.Writer) (*slog.Logger, *redacting, func(), error) {
	switch strings.ToLower(strings.TrimSpace(getenv("VAULTDECK_DEBUG"))) {
	case "", "0", "false", "no", "off":
	default:
		d.On = true
	}
	if !d.On && d.File == "" {
		return nil, nil, func() {}, nil
	}
	sink := &redacting{w: stderr, redact: func(string) string { return "" }} // nothing unredacted, ever
	closer := func() {}
	if d.File != "" {
		fh, err := os.OpenFile(d.File, os.O_WRONLY|os.O_APPEND|os.O_CREATE|oNoFollow, 0o600)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("the debug log %s could not be opened: %w", d.File, err)
		}
		sink.w, closer = fh, func() { fh.Close() }
	}
	return slog.New(slog.NewTextHandler(sink, &slog.HandlerOptions{Level: slog.LevelDebug})), sink, closer, nil
}

// redacting writes each record as one redacted line.
type redacting struct {
	mu     sync.Mutex
	w      io.Writer
	redact func(string) string
}

func (r *redacting) setRedact(f func(string) string) {
	r.mu.Lock()
	r.redact = f
	r.mu.Unlock()
}

func (r *redacting) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := io.WriteString(r.w, r.redact(string(b)))
	return len(b), err
}
