package console

import (
	"context"
	"net/http"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// lateSim is the demo's simulator, seeded in the background so that the
// first frame does not wait for it (a millisecond for the small seed, about
// 0.3 s for --scale large), and only once seed is called: after the first
// frame, so that the seeding does not compete with it for the cores (no
// goroutine of it exists before). Requests and the token wait until it is
// ready; both are only ever needed from commands, never to draw a frame.
type lateSim struct {
	opts  sim.Options
	ready chan struct{}
	srv   *sim.Server
}

func newLateSim(opts sim.Options) *lateSim {
	return &lateSim{opts: opts, ready: make(chan struct{})}
}

// seed starts the seeding; call it once.
func (l *lateSim) seed() {
	go func() {
		defer close(l.ready)
		l.srv = sim.New(l.opts)
	}()
}

// ServeHTTP serves a request once the simulator is seeded.
func (l *lateSim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case <-l.ready:
		l.srv.ServeHTTP(w, r)
	case <-r.Context().Done():
	}
}

// Token is the simulator's all-permissions token (api.TokenSource).
func (l *lateSim) Token(ctx context.Context) (string, error) {
	select {
	case <-l.ready:
		return l.srv.Token("admin"), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
