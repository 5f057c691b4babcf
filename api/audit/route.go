package audit

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/kballard/go-shellquote"

	"github.com/vaultdeck/vaultdeck/store"
)

// Route is what the console's `:audit ARGS` asks for, and what a view
// that opens the audit log on some entries (the activity view's bars and
// marks, the recycle bin's A) sends: one grammar read and written here,
// so what one view writes the audit view reads back the same.
//
// Words come in any order, each read by its form. A date, time or age is
// where to land ("2026-11-01", "2026-11-01 14:05", RFC 3339, "36h", "7d":
// the forms of --since); a word with @ is a user's e-mail; an address is
// an IP; any other word is a log type ("auth:login"). FROM..UNTIL (two
// RFC 3339 times) lists exactly the entries of that span, and nothing
// around them. A value whose form says otherwise, or that holds a space,
// is named and quoted as a shell would: `user "Eve Adams"`, `ip
// '10.0.0.1, 10.0.0.2'`, `type 2026-11-01`. The words are split as a
// POSIX shell splits them (github.com/kballard/go-shellquote, as the
// saved views are), so Arg's quoting reads back the same.
type Route struct {
	At    time.Time
	Until time.Time // with At: the span [At, Until) alone
	Type  string
	User  string
	IP    string
}

// RouteOf is the route to the entries f selects (its span, type, user
// and address).
func RouteOf(f store.AuditFilter) Route {
	return Route{At: f.Since, Until: f.Until, Type: f.Type, User: f.User, IP: f.IP}
}

// parseRouteTime reads one time a user typed with the one reader of typed
// times (ParseWhen, also --since's); ok is false when it is not one.
func parseRouteTime(s string, now time.Time) (time.Time, bool) {
	t, err := ParseWhen(s, now)
	return t, err == nil && !t.IsZero()
}

// ParseRoute reads the argument of `:audit`, ages counted back from now.
// A date and a time may be two words ("2026-11-01 14:05").
func ParseRoute(arg string, now time.Time) (Route, error) {
	var r Route
	words, err := shellquote.Split(arg)
	if err != nil {
		return r, fmt.Errorf("%q could not be read: %v (quote a value with spaces in \"double\" or 'single' quotes)", arg, err)
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if field := r.named(w); field != nil {
			if i+1 == len(words) {
				return r, fmt.Errorf("%q names no value: follow it with one (quoted when it holds spaces: %s \"a b\")", w, w)
			}
			*field = words[i+1]
			i++
			continue
		}
		if i+1 < len(words) {
			if t, ok := parseRouteTime(w+" "+words[i+1], now); ok {
				r.At = t
				i++
				continue
			}
		}
		if from, until, ok := strings.Cut(w, ".."); ok {
			a, aok := parseRouteTime(from, now)
			b, bok := parseRouteTime(until, now)
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
		if t, ok := parseRouteTime(w, now); ok {
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

// named is the field a naming word ("type", "user", "ip") sets.
func (r *Route) named(w string) *string {
	switch w {
	case "type":
		return &r.Type
	case "user":
		return &r.User
	case "ip":
		return &r.IP
	}
	return nil
}

// Arg is the route as ParseRoute reads it: the time or span, then type,
// user and address, each bare when its form says what it is and it reads
// back so, else named; quoted where a shell would need it.
func (r Route) Arg() string {
	var words []string
	switch {
	case !r.At.IsZero() && !r.Until.IsZero():
		words = append(words, r.At.UTC().Format(time.RFC3339Nano)+".."+r.Until.UTC().Format(time.RFC3339Nano))
	case !r.At.IsZero():
		words = append(words, r.At.UTC().Format(time.RFC3339Nano))
	}
	for _, f := range []struct{ name, v string }{{"type", r.Type}, {"user", r.User}, {"ip", r.IP}} {
		if f.v == "" {
			continue
		}
		// the word alone must read back as this field, whatever stands
		// around it; else it is named
		var alone Route
		got, err := ParseRoute(shellquote.Join(f.v), r.At)
		if err == nil && got.At.IsZero() && *got.named(f.name) == f.v && got == *alone.with(f.name, f.v) {
			words = append(words, f.v)
		} else {
			words = append(words, f.name, f.v)
		}
	}
	return shellquote.Join(words...)
}

// with is r with the named field set to v.
func (r *Route) with(name, v string) *Route {
	*r.named(name) = v
	return r
}
