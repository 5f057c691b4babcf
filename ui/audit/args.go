package audit

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	jobaudit "github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// route is what `:audit ARGS` asks for: words in any order, each read by
// its form. A date, time or age is where to land ("2026-11-01",
// "2026-11-01 14:05", RFC 3339, "36h", "7d": the forms of --since); a word
// with @ is a user's e-mail; an address is an IP; any other word is a log
// type ("auth:login"). FROM..UNTIL (two RFC 3339 times, what the
// activity view sends for a bar or a mark) lists exactly the entries of
// that span, oldest at the bottom, and nothing around them.
type route struct {
	At    time.Time
	Until time.Time // with At: the span [At, Until) alone
	Type  string
	User  string
	IP    string
}

// parseTime reads one time a user typed with the one reader of typed
// times (audit.ParseWhen, also --since's); ok is false when it is not one.
func parseTime(s string, now time.Time) (time.Time, bool) {
	t, err := jobaudit.ParseWhen(s, now)
	return t, err == nil && !t.IsZero()
}

// parseRoute reads the argument of `:audit`, ages counted back from now.
// A date and a time may be two words ("2026-11-01 14:05").
func parseRoute(arg string, now time.Time) (route, error) {
	var r route
	words := strings.Fields(sanitize.Line(arg))
	for i := 0; i < len(words); i++ {
		w := words[i]
		if i+1 < len(words) {
			if t, ok := parseTime(w+" "+words[i+1], now); ok {
				r.At = t
				i++
				continue
			}
		}
		if from, until, ok := strings.Cut(w, ".."); ok {
			a, aok := parseTime(from, now)
			b, bok := parseTime(until, now)
			if !aok || !bok || !a.Before(b) {
				return r, fmt.Errorf("%q is not a span of time (FROM..UNTIL, two times, the first before the second)", w)
			}
			r.At, r.Until = a, b
			continue
		}
		if _, err := netip.ParseAddr(w); err == nil {
			r.IP = w
			continue
		}
		if t, ok := parseTime(w, now); ok {
			r.At = t
			continue
		}
		if strings.Contains(w, "@") {
			r.User = w
			continue
		}
		if strings.ContainsAny(w, "-/") && strings.IndexFunc(w, func(c rune) bool { return c >= '0' && c <= '9' }) == 0 {
			return r, fmt.Errorf("%q is not a date or time (try 2026-11-01, 2026-11-01 14:05 or an age: 36h, 7d)", w)
		}
		r.Type = w
	}
	return r, nil
}
