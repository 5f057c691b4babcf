package api_test

import (
	"context"
	"crypto/tls"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// wireClient is a client of s with the transport vaultdeck makes (its
// dialer, its TLS over a CA file): the one whose connections are watched.
func wireClient(t *testing.T, s *faultserver.Server, overTLS bool) *api.Client {
	t.Helper()
	cfg := api.Config{BaseURL: s.URL, Token: api.StaticToken(faultToken), Limits: api.Limits{Vault: -1, Audit: -1}, Clock: instantClock{}}
	if overTLS {
		cfg.CAFile = filepath.Join(t.TempDir(), "ca.pem")
		if err := os.WriteFile(cfg.CAFile, s.CertPEM(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestWireFaultsOverTLS: over TLS (HTTP/1.1, as behind many proxies) the
// bytes past an answer are a protocol fault as on plain TCP, though the
// connection the client watches is under TLS. SurplusClose is not among
// them: its answer says Connection: close, so the transport never reads
// past it and no request can take those bytes as its answer; they are
// discarded unread, as every HTTP client does.
func TestWireFaultsOverTLS(t *testing.T) {
	t.Parallel()
	for _, fault := range []faultserver.Fault{faultserver.Surplus, faultserver.ChunkedSurplus, faultserver.NoContentBody,
		faultserver.NotModifiedBody, faultserver.RedirectSurplus, faultserver.BadTrailer, faultserver.NotHTTP} {
		t.Run(string(fault), func(t *testing.T) {
			t.Parallel()
			s := faultserver.Start(fault, faultserver.OverTLS())
			defer s.Close()
			c := wireClient(t, s, true)
			for name, call := range map[string]func(context.Context, *api.Client) error{
				"whoami": calls["whoami"], "projects": calls["projects"], "recycle-bin": calls["recycle-bin"],
			} {
				err := call(context.Background(), c)
				if !errors.Is(err, api.KindProtocol) {
					t.Errorf("%s: want a protocol error, got %v", name, err)
				}
				if err != nil && strings.Contains(strings.ToLower(err.Error()), "secret") {
					t.Errorf("%s: token in %q", name, err)
				}
			}
		})
	}
}

// TestCleanAnswersAreNoProtocolFault: the watch on what follows an answer
// never fails a good one: keep-alive answers read in turn and at once on
// shared connections, and answers after which the server closes at once
// (over TLS with its close_notify, which also closes the connection
// without a read).
func TestCleanAnswersAreNoProtocolFault(t *testing.T) {
	t.Parallel()
	for _, overTLS := range []bool{false, true} {
		for _, fault := range []faultserver.Fault{faultserver.None, faultserver.CloseAfter} {
			name := string(fault)
			var opts []faultserver.Option
			if overTLS {
				name += "/tls"
				opts = append(opts, faultserver.OverTLS())
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				s := faultserver.Start(fault, opts...)
				defer s.Close()
				c := wireClient(t, s, overTLS)
				var wg sync.WaitGroup
				errs := make(chan error, 200)
				for g := range 4 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := range 25 {
							call := calls["whoami"]
							if (g+i)%2 == 1 {
								call = calls["projects"]
							}
							if err := call(context.Background(), c); err != nil {
								errs <- err
							}
						}
					}()
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					t.Errorf("a good answer failed: %v", err)
				}
			})
		}
	}
}

// h2Server is a TLS listener offering only HTTP/2, with httptest's
// certificate in caFile; serve runs on each accepted connection.
func h2Server(t *testing.T, serve func(net.Conn)) (url, caFile string) {
	t.Helper()
	base := httptest.NewUnstartedServer(http.NotFoundHandler())
	base.EnableHTTP2 = true
	base.StartTLS()
	t.Cleanup(base.Close)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: base.TLS.Certificates, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				serve(c)
			}()
		}
	}()
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: base.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	return "https://" + ln.Addr().String(), caFile
}

// TestHTTP2GoAwayIsAProtocolFault: a server that ends the HTTP/2
// connection with PROTOCOL_ERROR (a GOAWAY after its SETTINGS) broke the
// protocol; the network did not fail. The frames are written by hand: a
// SETTINGS frame (type 4, empty), then a GOAWAY (type 7: last stream 0,
// error code 1).
func TestHTTP2GoAwayIsAProtocolFault(t *testing.T) {
	t.Parallel()
	url, ca := h2Server(t, func(c net.Conn) {
		preface := make([]byte, 24)
		if _, err := io.ReadFull(c, preface); err != nil {
			return
		}
		c.Write([]byte{0, 0, 0, 4, 0, 0, 0, 0, 0})
		c.Write([]byte{0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
		io.Copy(io.Discard, c)
	})
	c, err := api.New(api.Config{BaseURL: url, CAFile: ca, Token: api.StaticToken(faultToken), Clock: instantClock{}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.WhoAmI(context.Background())
	if !errors.Is(err, api.KindProtocol) || strings.Contains(err.Error(), "Check the network") {
		t.Fatalf("want a protocol error, got %v", err)
	}
}

// TestHTTP2IsStillSpoken: the client's own TLS dialer (wire.go) hands an
// HTTP/2 connection to the transport as it must for HTTP/2 to be spoken.
func TestHTTP2IsStillSpoken(t *testing.T) {
	t.Parallel()
	var proto atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proto.Store(int32(r.ProtoMajor))
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"user_id":"u1"}`)
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := api.New(api.Config{BaseURL: srv.URL, CAFile: ca, Token: api.StaticToken(faultToken)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.WhoAmI(context.Background()); err != nil {
		t.Fatal(err)
	}
	if proto.Load() != 2 {
		t.Errorf("the request was HTTP/%d", proto.Load())
	}
}

// TestPlainHTTPUnderHTTPSIsAProtocolFault: an https base URL on a port
// that answers plain HTTP reached a server that speaks another protocol,
// which is no network fault (it was worded as one).
func TestPlainHTTPUnderHTTPSIsAProtocolFault(t *testing.T) {
	t.Parallel()
	s := faultserver.Start(faultserver.None)
	defer s.Close()
	c, err := api.New(api.Config{BaseURL: strings.Replace(s.URL, "http://", "https://", 1), Token: api.StaticToken(faultToken), Clock: instantClock{}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.WhoAmI(context.Background())
	if !errors.Is(err, api.KindProtocol) || !strings.Contains(err.Error(), "scheme") {
		t.Fatalf("want a protocol error naming the scheme, got %v", err)
	}
}
