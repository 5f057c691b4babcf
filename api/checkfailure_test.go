package api

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Issue 29.6: the SSH login screen said "That token was not accepted" when
// the service could not be reached. Each failure a real client meets is
// named for what it is; only 401 and 403 speak of the token.
func TestCheckFailureNamesTheFailure(t *testing.T) {
	status := func(code int) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			w.Write([]byte(`{"error":"no"}`))
		}))
		t.Cleanup(s.Close)
		return s.URL
	}
	tlsSrv := httptest.NewTLSServer(http.NotFoundHandler()) // its certificate is nobody's the client trusts
	t.Cleanup(tlsSrv.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()

	for _, c := range []struct {
		name, base, want string
	}{
		{"401", status(401), "not accepted (401)"},
		{"403", status(403), "(403)"},
		{"5xx", status(503), "server error), so the token was not checked"},
		{"unreachable", closed, "could not be reached, so the token was not checked"},
		{"tls", strings.Replace(tlsSrv.URL, "127.0.0.1", "localhost", 1), "TLS certificate could not be verified"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl, err := New(Config{BaseURL: c.base, Token: StaticToken("tok"), Retry: RetryPolicy{MaxRetries: -1},
				Timeouts: Timeouts{Connect: time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = cl.WhoAmI(context.Background())
			if got := CheckFailure(err); !strings.Contains(got, c.want) {
				t.Errorf("%v\n  reads %q, want %q", err, got, c.want)
			}
			if c.name != "401" && c.name != "403" && strings.Contains(CheckFailure(err), "not accepted") {
				t.Errorf("%s said the token was not accepted", c.name)
			}
		})
	}
	// a timeout as the client reports one (a real one takes seconds)
	if got := CheckFailure(&Error{Kind: KindTimeout, Endpoint: "GET /api/whoami", After: time.Second, Received: -1}); !strings.Contains(got, "did not answer in time, so the token was not checked") {
		t.Errorf("timeout reads %q", got)
	}
}
