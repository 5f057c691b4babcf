package sim

import "time"

// Wire timestamp layouts. The service mixes two formats; both carry exactly
// six fractional digits.
const (
	layoutZ     = "2006-01-02T15:04:05.000000Z" // recycle bin deleted_at / purge
	layoutNaive = "2006-01-02T15:04:05.000000"  // project and audit timestamps, no zone
)

func fmtZ(t time.Time) string     { return t.UTC().Format(layoutZ) }
func fmtNaive(t time.Time) string { return t.UTC().Format(layoutNaive) }

// Now returns the simulator clock: Options.Now plus everything Advance added.
func (s *Server) Now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nowLocked()
}

func (s *Server) nowLocked() time.Time { return s.opts.Now().Add(s.offset).UTC() }

// Advance moves the simulator clock forward (processing, deletions and rate
// windows all follow it). Negative durations are ignored.
func (s *Server) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	s.mu.Lock()
	s.offset += d
	s.mu.Unlock()
}

// lock takes the state lock and brings time-driven state up to date
// (finished project deletions, then purges, so that a long jump purges a
// deletion it also finished). Every state reader goes through it, so
// "asynchronous" work completes lazily but observably on the sim clock.
func (s *Server) lock() time.Time {
	s.mu.Lock()
	now := s.nowLocked()
	s.st.settle(now)
	s.st.purge(now)
	s.st.trickle(now)
	s.st.churn(now)
	return now
}
