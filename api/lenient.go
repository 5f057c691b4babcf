package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The decoders in this file accept the variations production is known to send
// (public-api-facts §8): timestamps with or without zone and fraction, epoch
// seconds, RFC 1123; numbers as strings; audit types as strings or objects.
// Each keeps the raw text so that --json reproduces what the server said.

// Time is a timestamp decoded tolerantly. Raw keeps the server's own text.
type Time struct {
	time.Time
	Raw string
}

// Layouts tried in order; zone-less forms are read as UTC, which is what the
// service means by them.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	time.RFC1123,
	time.RFC1123Z,
}

// ParseTime reads a timestamp in any of the forms the service uses.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	// Fast path for the two forms the service actually sends, chosen by
	// shape so that large listings do not pay for failed attempts.
	if len(s) >= 19 && s[10] == 'T' {
		layout := "2006-01-02T15:04:05.999999999"
		if last := s[len(s)-1]; last == 'Z' || last == 'z' || strings.LastIndexAny(s[19:], "+-") >= 0 {
			layout = time.RFC3339Nano
		}
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		return epoch(secs), nil
	}
	return time.Time{}, fmt.Errorf("unrecognised timestamp %q", s)
}

func epoch(secs float64) time.Time {
	if !(secs > -1e11 && secs < 1e11) { // beyond any date of the interface, or NaN
		return time.Time{}
	}
	whole := int64(secs)
	return time.Unix(whole, int64((secs-float64(whole))*1e9)).UTC()
}

// UnmarshalJSON accepts null, a string in any known layout, or epoch seconds.
func (t *Time) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*t = Time{}
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if len(b) >= 2 && b[len(b)-1] == '"' && bytes.IndexByte(b, '\\') < 0 {
			s = string(b[1 : len(b)-1]) // the common case: no escapes to undo
		} else if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			*t = Time{}
			return nil
		}
		parsed, err := ParseTime(s)
		if err != nil {
			// A timestamp in a form we do not know must not make the whole
			// listing unreadable: keep the text (shown verbatim), zero time.
			*t = Time{Raw: s}
			return nil
		}
		*t = Time{Time: inRange(parsed), Raw: s}
		return nil
	}
	secs, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		// 1e400, true, an object: kept as sent, invalid.
		*t = Time{Raw: string(b)}
		return nil
	}
	*t = Time{Time: inRange(epoch(secs)), Raw: string(b)}
	return nil
}

// MarshalJSON writes the server's own text when there is one.
func (t Time) MarshalJSON() ([]byte, error) {
	switch {
	case t.Raw != "" && (t.Raw[0] >= '0' && t.Raw[0] <= '9') && !strings.ContainsAny(t.Raw, "-:"):
		return []byte(t.Raw), nil // epoch seconds stay a number
	case t.Raw != "":
		return json.Marshal(t.Raw)
	case t.Time.IsZero():
		return []byte("null"), nil
	default:
		return json.Marshal(t.Time.UTC().Format(time.RFC3339Nano))
	}
}

// Int is a count or size that may arrive as a JSON number or a numeric
// string (project_size is a string in the service's own examples). Every
// Int of the interface is a whole number of zero or more: one that is not
// (negative, fractional, beyond int64, NaN, Infinity, not a number at all)
// is read as InvalidInt, so that it is shown as invalid (String) instead
// of wrapped or saturated, and one such field does not make the listing
// unreadable. --json keeps the service's own text, which it prints raw.
type Int int64

// InvalidInt is an Int the service sent that no count or size can be.
const InvalidInt Int = math.MinInt64

// UnmarshalJSON accepts 12, 12.0, 1e3, "12" and null (as 0); anything else
// is InvalidInt.
func (n *Int) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	if s == "null" || s == "" {
		*n = 0
		return nil
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		*n = Int(v)
		if v < 0 {
			*n = InvalidInt
		}
		return nil
	}
	// 2^63 is the first float64 that int64 cannot hold; below it every
	// whole float64 converts exactly.
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f >= 1<<63 {
		*n = InvalidInt // also NaN, which fails every comparison but !=
		return nil
	}
	*n = Int(f)
	return nil
}

// Valid reports whether n is a count or size the interface can mean.
func (n Int) Valid() bool { return n >= 0 }

// String is n in decimal, or "invalid": what every printer shows.
func (n Int) String() string {
	if !n.Valid() {
		return "invalid"
	}
	return strconv.FormatInt(int64(n), 10)
}

// AuditType is an audit log type. Older service versions sent an object
// {"description":..,"example":..}; its example (or description) is used then.
type AuditType string

// UnmarshalJSON accepts a string or the older object form.
func (a *AuditType) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		var obj struct {
			Description string `json:"description"`
			Example     string `json:"example"`
		}
		if err := json.Unmarshal(b, &obj); err != nil {
			return err
		}
		*a = AuditType(obj.Example)
		if obj.Example == "" {
			*a = AuditType(obj.Description)
		}
		return nil
	}
	if bytes.Equal(b, []byte("null")) {
		*a = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*a = AuditType(s)
	return nil
}

// RawJSON is json.RawMessage that treats null as absent, so a missing data
// object and "data": null read the same.
type RawJSON = json.RawMessage

// The times the interface can mean: none of its records (a deletion, a
// purge, an upload, an audit entry) is before the Unix epoch or two
// centuries on. Outside them a time is invalid: the year 1 is Go's zero, and
// the year 9999 would saturate every duration taken from it.
var (
	earliestTime = time.Unix(0, 0).UTC()
	latestTime   = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// inRange keeps t when the interface can mean it, else the zero time.
func inRange(t time.Time) time.Time {
	if t.Before(earliestTime) || !t.Before(latestTime) {
		return time.Time{}
	}
	return t
}

// Invalid reports whether the service sent a time that no record can
// mean (out of range, or in no form known): its text is kept in Raw, its
// Time is zero (no time: never overdue, sorted last), and printers show it
// as invalid.
func (t Time) Invalid() bool { return t.Time.IsZero() && t.Raw != "" }
