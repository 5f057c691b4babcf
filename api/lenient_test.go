package api

import (
	"encoding/json"
	"testing"
)

// TestNumbersOutsideTheInterfaceAreInvalid: a count or size the interface
// cannot mean (beyond int64, not an integer, not a number, negative) is
// decoded as invalid and said so, never wrapped, truncated or saturated;
// the forms the service does send still read as before.
func TestNumbersOutsideTheInterfaceAreInvalid(t *testing.T) {
	for _, raw := range []string{`1000000000000000000000000000000`, `"1000000000000000000000000000000"`, `1e400`, `-1e400`, `"NaN"`, `"Infinity"`,
		`"-Infinity"`, `-7`, `"-7"`, `12.5`, `9223372036854775808`, `-9223372036854775808`, `1e19`, `"12x"`, `true`, `[]`} {
		var n Int
		if err := json.Unmarshal([]byte(raw), &n); err != nil {
			t.Errorf("%s: %v, want it read as invalid (one field must not make the listing unreadable)", raw, err)
			continue
		}
		if n.Valid() || n.String() != "invalid" {
			t.Errorf("%s read as %d (%q), want invalid", raw, int64(n), n.String())
		}
	}
	for raw, want := range map[string]int64{`12`: 12, `"12"`: 12, `12.0`: 12, `0`: 0, `null`: 0, `""`: 0, `1e3`: 1000, `9223372036854775807`: 9223372036854775807} {
		var n Int
		if err := json.Unmarshal([]byte(raw), &n); err != nil || !n.Valid() || int64(n) != want {
			t.Errorf("%s: %d, %v; want %d", raw, int64(n), err, want)
		}
	}
}

// TestTimesOutsideTheInterfaceAreInvalid: a time no answer of the service
// can mean (the year 1, the year 9999, a 25th hour, epoch seconds beyond
// any date) is kept as sent (Raw, for --json) and is invalid: no time at
// all (not overdue, sorted last), shown as invalid, never saturated.
func TestTimesOutsideTheInterfaceAreInvalid(t *testing.T) {
	for _, raw := range []string{`"0001-01-01T00:00:00Z"`, `"9999-12-31T23:59:59.999999Z"`, `"2025-06-01T25:00:00Z"`, `"1969-12-31T23:59:59Z"`,
		`"2300-01-01T00:00:00Z"`, `1e400`, `"NaN"`, `-62135596800`, `253402300799`, `"next tuesday"`} {
		var tm Time
		if err := json.Unmarshal([]byte(raw), &tm); err != nil {
			t.Errorf("%s: %v, want it read as invalid", raw, err)
			continue
		}
		if !tm.Invalid() || !tm.Time.IsZero() || tm.Raw == "" {
			t.Errorf("%s read as %v (raw %q, invalid %v), want invalid, no time, the text kept", raw, tm.Time, tm.Raw, tm.Invalid())
		}
	}
	for _, raw := range []string{`"2025-06-01T10:00:00Z"`, `"2025-06-01T10:00:00.123456"`, `1748772000`, `"Sun, 01 Jun 2025 10:00:00 GMT"`} {
		var tm Time
		if err := json.Unmarshal([]byte(raw), &tm); err != nil || tm.Invalid() || tm.Time.Year() != 2025 {
			t.Errorf("%s: %v (invalid %v), %v", raw, tm.Time, tm.Invalid(), err)
		}
	}
	var none Time
	if err := json.Unmarshal([]byte(`null`), &none); err != nil || none.Invalid() {
		t.Errorf("null is no time, not an invalid one: %v %v", none, err)
	}
}
