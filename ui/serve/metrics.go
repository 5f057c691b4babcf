package serve

import (
	vm "github.com/VictoriaMetrics/metrics"

	"github.com/vaultdeck/vaultdeck/api/metrics"
)

// ListenMetrics serves `serve --metrics`: the sessions open at each
// scrape (vaultdeck_serve_sessions), on a loopback address only
// (metrics.CheckLoopback), until the returned server is closed.
func (s *Server) ListenMetrics(addr string) (*metrics.Server, error) {
	set := vm.NewSet()
	set.NewGauge("vaultdeck_serve_sessions", func() float64 { return float64(s.Sessions()) })
	return metrics.Listen(addr, set)
}
