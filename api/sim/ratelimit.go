package sim

import "time"

// category is a rate-limit bucket shared by a group of endpoints.
type category string

const (
	catNone    category = ""
	catVault   category = "vault"
	catAudit   category = "audit"
	catMatters category = "matters"
)

func (s *Server) limitFor(c category) int {
	switch c {
	case catVault:
		return s.opts.Limits.Vault
	case catAudit:
		return s.opts.Limits.Audit
	case catMatters:
		return s.opts.Limits.Matters
	}
	return 0
}

// limiter is a sliding one-minute window per category, on the simulator
// clock: advancing the clock by a minute frees the window, so tests never
// sleep. The simulator has one workspace, so per-workspace == per-category.
type limiter struct {
	hits map[category][]time.Time
	// refused counts the 429s answered per category, so a test can assert
	// that a client never met the limit without timing anything.
	refused map[category]int
}

func newLimiter() *limiter {
	return &limiter{hits: map[category][]time.Time{}, refused: map[category]int{}}
}

// RateLimited returns how many requests of each category ("vault",
// "audit", "matters") were answered 429 so far.
func (s *Server) RateLimited() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for c, n := range s.limiter.refused {
		out[string(c)] = n
	}
	return out
}

// allow records a request at now when under limit; otherwise it returns the
// whole seconds until the oldest counted request leaves the window (>= 1).
func (l *limiter) allow(c category, limit int, now time.Time) (retryAfter int, ok bool) {
	window := time.Minute
	h := l.hits[c]
	i := 0
	for i < len(h) && !h[i].After(now.Add(-window)) {
		i++
	}
	h = h[i:]
	if len(h) >= limit {
		l.hits[c] = h
		wait := h[0].Add(window).Sub(now)
		secs := int((wait + time.Second - 1) / time.Second)
		return max(secs, 1), false
	}
	l.hits[c] = append(h, now)
	return 0, true
}
