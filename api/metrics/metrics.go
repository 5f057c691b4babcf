// Package metrics is the optional Prometheus endpoint of the long-running
// commands (`audit follow --metrics`, `serve --metrics`): the loopback-only
// address check, the listener serving one metric set at /metrics, and the
// sets themselves. It is a leaf: it imports store's record type only, and
// the command feeds it. The text format is VictoriaMetrics/metrics's, a
// small library with no registry to initialise (prometheus/client_golang
// costs every start of the binary its init).
package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	vm "github.com/VictoriaMetrics/metrics"
)

// CheckLoopback refuses an address a metrics endpoint must not listen on:
// anything but a loopback IP (127.0.0.0/8, ::1) or localhost, with a port.
// The endpoint has no authentication; a scraper on another machine goes
// through an SSH tunnel or a local agent.
func CheckLoopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not HOST:PORT: %w", addr, err)
	}
	if port == "" {
		return fmt.Errorf("%q names no port", addr)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address: the metrics have no authentication, so they are served on 127.0.0.1 or [::1] only", addr)
	}
	return nil
}

// Server is a listening metrics endpoint.
type Server struct {
	Addr net.Addr // where it listens (the port chosen for :0)
	srv  *http.Server
	done chan error
}

// Listen serves set at http://addr/metrics (addr checked by CheckLoopback)
// until Close.
func Listen(addr string, set *vm.Set) (*Server, error) {
	if err := CheckLoopback(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("the metrics endpoint cannot listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		set.WritePrometheus(w)
	})
	s := &Server{Addr: ln.Addr(), done: make(chan error, 1),
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
			WriteTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10}}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the endpoint.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}
