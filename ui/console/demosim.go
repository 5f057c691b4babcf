package console

import (
	"context"
	"net/http"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// lateSim is the demo's simulator, seeded in the background so that the
// first frame does not wait for it (a millisecond for the small seed, about
// 0.3 s for --scale large), and only once start is closed: after the first
// frame, so that the seeding does not compete with it for the cores.
// Requests and the token wait until it is ready; both are only ever needed
// from commands, never to draw a frame.
type lateSim struct {
	ready chan struct{}
	srv   *sim.Server
}

func startSim(opts sim.Options, start <-chan struct{}) *lateSim {
	l := &lateSim{ready: make(chan struct{})}
	go func() {
		defer close(l.ready)
		<-start
		l.srv = sim.New(opts)
	}()
	return l
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
