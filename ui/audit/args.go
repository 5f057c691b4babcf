package audit

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// route is what `:audit ARGS` asks for: words in any order, each read by
// its form. A date or time is where to land ("2026-11-01", "2026-11-01
// 14:05", RFC 3339); a word with @ is a user's e-mail; an address is an
// IP; any other word is a log type ("auth:login").
type route struct {
	At   time.Time
	Type string
	User string
	IP   string
}

// timeForms are the layouts a jump accepts, all read as UTC.
var timeForms = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"}

// parseTime reads a time a user typed; ok is false when it is not one.
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, f := range timeForms {
		if t, err := time.ParseInLocation(f, s, time.UTC); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// parseRoute reads the argument of `:audit`. A date and a time may be two
// words ("2026-11-01 14:05").
func parseRoute(arg string) (route, error) {
	var r route
	words := strings.Fields(sanitize.Line(arg))
	for i := 0; i < len(words); i++ {
		w := words[i]
		if i+1 < len(words) {
			if t, ok := parseTime(w + " " + words[i+1]); ok {
				r.At = t
				i++
				continue
			}
		}
		if t, ok := parseTime(w); ok {
			r.At = t
			continue
		}
		if _, err := netip.ParseAddr(w); err == nil {
			r.IP = w
			continue
		}
		if strings.Contains(w, "@") {
			r.User = w
			continue
		}
		if strings.ContainsAny(w, "-/") && strings.IndexFunc(w, func(c rune) bool { return c >= '0' && c <= '9' }) == 0 {
			return r, fmt.Errorf("%q is not a date or time (try 2026-11-01 or 2026-11-01 14:05)", w)
		}
		r.Type = w
	}
	return r, nil
}
