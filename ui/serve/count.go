package serve

import (
	"context"
	"net/http"
	"sync/atomic"
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
type countingTransport struct{ next http.RoundTripper }

func (t countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if n, ok := r.Context().Value(requestsKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
	// a session's write is recorded before it goes (record.go)
	if rc, ok := r.Context().Value(recorderKey{}).(*recorder); ok && isWrite(r.Method) {
		return rc.roundTrip(t.next, r)
	}
	return t.next.RoundTrip(r)
}

// wrapCounting is the transport wrapper of every client serve makes: the
// count, the write's record, and the --debug line around them.
func (s *Server) wrapCounting(next http.RoundTripper) http.RoundTripper {
	return s.debugTransport(countingTransport{next: next})
}
