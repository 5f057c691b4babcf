package debuglog

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Transport logs each request of next as its answer's body ends (or a
// failed one with its error, when the client does not: failed says so).
// tag returns the attributes a line begins with (serve's session and key)
// and whether the request is logged at all; nil: every request, untagged.
type Transport struct {
	Logger  *slog.Logger
	Headers bool
	Tag     func(*http.Request) ([]slog.Attr, bool)
	// Failures: log a request that got no answer (the command line's
	// client logs its failed attempts with their reasons itself).
	Failures bool
}

// Wrap is next with t's lines.
func (t Transport) Wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		var attrs []slog.Attr
		if t.Tag != nil {
			tags, ok := t.Tag(req)
			if !ok {
				return next.RoundTrip(req)
			}
			attrs = tags
		}
		start := time.Now()
		resp, err := next.RoundTrip(req)
		attrs = append(attrs, slog.String("method", req.Method), slog.String("path", pathAndNames(req)))
		if err != nil {
			if t.Failures {
				t.Logger.LogAttrs(req.Context(), slog.LevelDebug, "request", append(attrs, slog.String("error", err.Error()),
					slog.Duration("duration", time.Since(start).Round(time.Millisecond)))...)
			}
			return resp, err
		}
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
		var hdrs []slog.Attr
		if t.Headers {
			hdrs = []slog.Attr{slog.String("request_headers", headerText(req.Header)), slog.String("response_headers", headerText(resp.Header))}
		}
		resp.Body = &countedBody{ReadCloser: resp.Body, done: func(n int64) {
			t.Logger.LogAttrs(req.Context(), slog.LevelDebug, "request",
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

// headerText is h in one value, sorted, credentials withheld.
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
