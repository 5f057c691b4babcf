package recyclebin

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Soon is the console's "purging soon" window, and the header badge's: a
// week is what the countdown colours amber, a day what they colour red.
const (
	Soon   = 7 * 24 * time.Hour
	Urgent = 24 * time.Hour
)

// Purging reports whether a purge scheduled at at falls within window of
// now, and whether it is already overdue (scheduled in the past, not yet
// gone: nothing restores it once the service gets to it). An entry without
// a scheduled time is neither: nothing says when it goes.
func Purging(at, now time.Time, window time.Duration) (within, overdue bool) {
	if at.IsZero() {
		return false, false
	}
	if !at.After(now) {
		return true, true
	}
	return at.Sub(now) <= window, false
}

// ParseWindow reads a purge window as people write it: 7d, 36h, 90m, or
// any Go duration; days are 24 hours. It must be more than zero.
func ParseWindow(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n <= 0 || n > 3650 {
			return 0, fmt.Errorf("%q is not a number of days such as 7d", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a window such as 7d, 36h or 90m", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("the window %q must be more than zero", s)
	}
	return d, nil
}

// FormatWindow writes a window the way ParseWindow reads it, whole days
// as days (7d), else as a Go duration (36h0m0s reads 36h).
func FormatWindow(d time.Duration) string {
	if d >= 24*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
