package purge

import (
	"testing"
	"time"
)

func TestWithin(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at              time.Time
		within, overdue bool
	}{
		{time.Time{}, false, false},
		{now.Add(-time.Hour), true, true},
		{now, true, true},
		{now.Add(time.Minute), true, false},
		{now.Add(Soon), true, false},
		{now.Add(Soon + time.Second), false, false},
	} {
		w, o := Within(c.at, now, Soon)
		if w != c.within || o != c.overdue {
			t.Errorf("Within(%v) = %v, %v; want %v, %v", c.at.Sub(now), w, o, c.within, c.overdue)
		}
	}
}

func TestParseWindow(t *testing.T) {
	for in, want := range map[string]time.Duration{"7d": Soon, "1d": Urgent, "36h": 36 * time.Hour, "90m": 90 * time.Minute, "0.5d": 12 * time.Hour} {
		if got, err := ParseWindow(in); err != nil || got != want {
			t.Errorf("ParseWindow(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0d", "-1d", "7", "d", "week", "-5h", "0s"} {
		if _, err := ParseWindow(in); err == nil {
			t.Errorf("ParseWindow(%q) accepted", in)
		}
	}
	for d, want := range map[time.Duration]string{Soon: "7d", 36 * time.Hour: "36h", 90 * time.Minute: "1h30m", 12 * time.Hour: "12h"} {
		if got := FormatWindow(d); got != want {
			t.Errorf("FormatWindow(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestCountdownBoundaries: a day and a week away are no longer within them
// (the console's amber and red begin strictly under them), and nothing
// scheduled is unscheduled, not overdue.
func TestCountdownBoundaries(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at   time.Time
		text string
		u    Urgency
	}{
		{time.Time{}, "?", Unscheduled},
		{now, "overdue", WithinDay},
		{now.Add(59 * time.Second), "<1m", WithinDay},
		{now.Add(Urgent - time.Minute), "23h59m", WithinDay},
		{now.Add(Urgent), "1d00h", WithinWeek},
		{now.Add(Soon - time.Hour), "6d23h", WithinWeek},
		{now.Add(Soon), "7d00h", Later},
	} {
		if text, u := Countdown(c.at, now); text != c.text || u != c.u {
			t.Errorf("Countdown(%v) = %q, %d; want %q, %d", c.at.Sub(now), text, u, c.text, c.u)
		}
	}
}
