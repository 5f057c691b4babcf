// Package purge holds the rules of a recycle-bin entry's purge: whether it
// falls within a window, how a window is written, the countdown to it, and
// the recycle bin's filter (Filter: its flags, its query, its keep). The
// console's recycle bin, `vaultdeck recycle-bin` and saved views all follow
// them, so a "7d" or a "29d23h" means the same on the screen and in a
// script.
package purge

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Soon is the "purging soon" window (the console's p, the probe's default)
// and Urgent the header badge's: a week is what the countdown marks as
// within the week, a day what it marks as within the day.
const (
	Soon   = 7 * 24 * time.Hour
	Urgent = 24 * time.Hour
)

// Within reports whether a purge scheduled at at falls within window of
// now, and whether it is already overdue (scheduled in the past, not yet
// gone: nothing restores it once the service gets to it). An entry without
// a scheduled time is neither: nothing says when it goes.
func Within(at, now time.Time, window time.Duration) (within, overdue bool) {
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
		switch {
		case err != nil:
			return 0, fmt.Errorf("%q is not a number of days such as 7d", s)
		case n <= 0:
			// 0d is a number of days; it is the window that cannot be
			// empty (what is overdue is within every window: 1d shows it)
			return 0, fmt.Errorf("the window %q must be more than zero: 1d lists what purges within a day, overdue included", s)
		case n > 3650:
			return 0, fmt.Errorf("the window %q is more than ten years (3650d)", s)
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

// Urgency is how close a countdown is to the purge; the console colours it.
type Urgency int

const (
	Unscheduled Urgency = iota // no purge time: nothing says when it goes
	Later                      // a week or more away
	WithinWeek                 // under 7 days away
	WithinDay                  // under 24 hours away, or overdue
)

// Countdown is the time left before the scheduled purge at, as text, and
// its urgency. Days keep their hours (29d23h: a day cut off is not "29d"),
// under a minute reads "<1m" (not 0h00m, which reads as overdue) and a
// purge time passed reads "overdue".
func Countdown(at, now time.Time) (string, Urgency) {
	if at.IsZero() {
		return "?", Unscheduled
	}
	d := at.Sub(now)
	switch {
	case d <= 0:
		return "overdue", WithinDay
	case d < time.Minute:
		return "<1m", WithinDay
	case d < Urgent:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60), WithinDay
	case d < Soon:
		return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24), WithinWeek
	}
	return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24), Later
}
