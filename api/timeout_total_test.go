package api

import (
	"testing"
	"time"
)

// TestTotalTimeoutFollowsTheSilenceTimeout: the bound on one whole answer
// is TotalFactor times the longer silence timeout unless set, so --timeout
// (which sets both silence timeouts) moves it; without either it is the
// default, and a negative value turns it off.
func TestTotalTimeoutFollowsTheSilenceTimeout(t *testing.T) {
	for _, tc := range []struct {
		in   Timeouts
		want time.Duration
	}{
		{Timeouts{}, 15 * time.Minute},
		{Timeouts{FirstByte: 2 * time.Minute, BodyStall: 2 * time.Minute}, time.Hour},
		{Timeouts{FirstByte: time.Second, BodyStall: 3 * time.Second}, 90 * time.Second},
		{Timeouts{FirstByte: -1, BodyStall: -1}, DefaultTotalTimeout},
		{Timeouts{Total: 5 * time.Second}, 5 * time.Second},
		{Timeouts{Total: -1}, -1},
	} {
		if got := tc.in.normalized().Total; got != tc.want {
			t.Errorf("%+v: total %v, want %v", tc.in, got, tc.want)
		}
	}
}
