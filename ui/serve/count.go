package serve

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// A session's requests are counted where they leave, in the HTTP transport
// of every client the server builds, for the session's log line: whatever
// the console calls (listings, audit items, writes), each request and each
// retry is seen. Sessions on a bound profile share one client, so the
// count a request belongs to rides in its context, put there once per
// session (program); a request several sessions share is counted for the
// one that sent it, and the scheduled crawl's for none.

type requestsKey struct{}

// countRequests returns ctx whose requests add to n.
func countRequests(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, requestsKey{}, n)
}

// countingTransport counts each request whose context carries a count.
type countingTransport struct {
	next  http.RoundTripper
	debug *slog.Logger // serve's --debug log (debuglog.go); nil: off
}

func (t countingTransport) RoundTrip(r *http.Request) (resp *http.Response, err error) {
	if t.debug != nil {
		start := time.Now()
		defer func() { debugLine(t.debug, r, resp, err, time.Since(start)) }()
	}
	if n, ok := r.Context().Value(requestsKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
	// a session's write is recorded before it goes (record.go)
	if rc, ok := r.Context().Value(recorderKey{}).(*recorder); ok && isWrite(r.Method) {
		return rc.roundTrip(t.next, r)
	}
	return t.next.RoundTrip(r)
}

// wrapCounting is the transport wrapper of every client serve makes.
func (s *Server) wrapCounting(next http.RoundTripper) http.RoundTripper {
	return countingTransport{next: next, debug: s.debug}
}
