package audit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// ParseWhen reads a time a person typed, the one reader of every place
// that takes one (`audit --since/--until`, the console's @ jump and
// :audit): a date (midnight UTC), a time with or without seconds (UTC
// unless it names a zone), or an age back from now ("36h", "7d"). Empty is
// the zero time.
func ParseWhen(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(d); err == nil && n >= 0 {
			return now.Add(-time.Duration(n) * 24 * time.Hour).UTC(), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("an age must not be negative (got %q)", s)
		}
		return now.Add(-d).UTC(), nil
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	if t, err := api.ParseTime(s); err == nil {
		return t, nil
	}
	return time.Time{}, errors.New("not a date (2026-11-01), a time (2026-11-01T09:30:00Z) or an age (36h, 7d): " + strconv.Quote(s))
}
