package api

import (
	"bytes"
	"encoding/json"
	"fmt"
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
		*t = Time{Time: parsed, Raw: s}
		return nil
	}
	secs, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("timestamp is neither a string nor a number: %.40s", b)
	}
	*t = Time{Time: epoch(secs), Raw: string(b)}
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

// Int is an integer that may arrive as a JSON number or a numeric string
// (project_size is a string in the service's own examples).
type Int int64

// UnmarshalJSON accepts 12, 12.0, "12" and null (as 0).
func (n *Int) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	if s == "null" || s == "" {
		*n = 0
		return nil
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		*n = Int(v)
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("expected an integer, got %.40s", b)
	}
	*n = Int(f)
	return nil
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
