package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// auditFieldSeeds are entries in the shapes a service sends and in the
// shapes that send the walk to the decoder: escapes in values and keys,
// keys in another case or given twice, fields of another kind, a type as
// an object, times it does or does not read, nesting with quotes and
// backslashes inside.
var auditFieldSeeds = []string{
	`{"id":"0190","timestamp":"2025-06-01T10:00:00.123Z","type":"auth:login","user":"ann@firm.test","ip":"10.0.0.1","user_agent":"ua","data":{"site":"eu"}}`,
	`{"data":{"b":[1,{"z":"\"}"}]},"ip":"10.0.0.2","user":"bob@firm.test","type":"x:new","timestamp":"2025-06-01T10:00:00+02:00","id":"0191","zeta":1.5e3}`,
	` { "id" : "0192" , "timestamp" : "2025-06-01 10:00:00" , "type" : "t" } `,
	`{"ID":"0193","Type":"AUTH:LOGIN","USER":"c@d"}`,
	`{"id":"0194","id":"0195"}`, `{"id":5}`, `{"id":"0196","user":"caf\u00e9"}`, `{"i\u0064":"0197"}`, `{"\u0130d":"x"}`,
	`{"id":"0198","timestamp":1717236000}`, `{"id":"0199","timestamp":"1717236000.5"}`, `{"id":"019a","timestamp":"yesterday"}`,
	`{"id":"019b","timestamp":""}`, `{"id":"019c","timestamp":true}`, `{"id":"019d","timestamp":null,"type":null,"user":null}`,
	`{"id":"019e","type":{"description":"Login","example":"auth:login"}}`, `{"id":"019f","type":7}`, "{\"id\":\"01a0\",\"type\":\"a\xffb\"}",
	"{\"id\":\"01a1\",\"user\":\"a\xffb\"}", `{"id":"01a2","user_agent":5}`, `{"id":"01a3","user_agent":null,"data":null}`,
	`{"id":"01a4","ip":["10.0.0.1"]}`, `null`, `{}`, `{"":"x","id":"01a5"}`, `{"id":"01a6","data":"\\"}`, `{"id":"01a7","x":"\\\""}`,
	`{"id":"01a8","user":""}`, `{"id":"01a9","idx":"no","typ":"no"}`,
}

// wholeFields is what the decode of the whole entry gives for the fields
// a page keeps.
func wholeFields(raw []byte) (AuditEntry, error) {
	var e AuditEntry
	err := unmarshalItem(raw, &e)
	return AuditEntry{ID: e.ID, Timestamp: e.Timestamp, Type: e.Type, User: e.User, IP: e.IP}, err
}

func checkAuditFields(t *testing.T, raw []byte) {
	var d auditFieldDecoder
	got, err := d.decode(raw)
	want, werr := wholeFields(raw)
	switch {
	case (err == nil) != (werr == nil):
		t.Fatalf("%q: walk error %v, whole decode error %v", raw, err, werr)
	case err != nil && err.Error() != werr.Error():
		t.Fatalf("%q: walk error %q, whole decode error %q", raw, err, werr)
	case err == nil && (got.ID != want.ID || got.Type != want.Type || got.User != want.User || got.IP != want.IP ||
		!got.Timestamp.Time.Equal(want.Timestamp.Time) || got.Timestamp.Raw != want.Timestamp.Raw):
		t.Fatalf("%q: walk %+v, whole decode %+v", raw, got, want)
	}
}

// TestAuditFieldsAgreeWithWholeDecode: the fields the page's walk takes
// are what decoding the entry whole gives, and an entry it refuses is
// refused with the decode's own words.
func TestAuditFieldsAgreeWithWholeDecode(t *testing.T) {
	for _, s := range auditFieldSeeds {
		if !json.Valid([]byte(s)) {
			t.Fatalf("seed %q is not valid JSON", s)
		}
		checkAuditFields(t, []byte(s))
	}
}

// FuzzAuditFieldsAgreeWithWholeDecode is the same over any entry that
// auditList hands the walk: valid JSON (json.Valid lets bytes that are not
// UTF-8 by, as the listing does), an object or null.
func FuzzAuditFieldsAgreeWithWholeDecode(f *testing.F) {
	for _, s := range auditFieldSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || (raw[0] != '{' && raw[0] != 'n') || !json.Valid(raw) {
			return
		}
		checkAuditFields(t, raw)
	})
}

// TestAuditPageKeepsEachEntrysBytes: each entry of a page holds its bytes
// as sent (spacing between entries left out), beside the fields decoded.
func TestAuditPageKeepsEachEntrysBytes(t *testing.T) {
	body := `[{"id":"1","type":"auth:login","zeta":[1,2]} , {"user":"a@b","id":"2"}]`
	h := newHarness(t, jsonHandler(200, body), func(c *Config) { c.Limits = Limits{Audit: -1} })
	p, err := h.c.AuditPage(context.Background(), "0", MaxAuditTake, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"id":"1","type":"auth:login","zeta":[1,2]}`, `{"user":"a@b","id":"2"}`}
	if len(p.Entries) != len(want) {
		t.Fatalf("%d entries", len(p.Entries))
	}
	for i, e := range p.Entries {
		if string(e.JSON) != want[i] {
			t.Errorf("entry %d: %q, want %q", i+1, e.JSON, want[i])
		}
	}
	if p.Entries[1].Value.User != "a@b" || p.Entries[0].Value.Type != "auth:login" || p.Last != "2" {
		t.Errorf("fields %+v", p)
	}
}

// TestAuditPageOfMoreThanAskedStops: a page holds at most the entries
// asked for (take, 1..1000, as the listing promises); a server that sends
// more (883,000 entries of a few bytes fit in the 16 MiB a page may be,
// and held 187 MB) is stopped at the first entry past it.
func TestAuditPageOfMoreThanAskedStops(t *testing.T) {
	body := `[{"id":"1"},{"id":"2"},{"id":"3"},{"id":"4"}]`
	h := newHarness(t, jsonHandler(200, body), func(c *Config) { c.Limits = Limits{Audit: -1} })
	if _, err := h.c.AuditPage(context.Background(), "0", 4, ""); err != nil {
		t.Fatalf("a page of the 4 entries asked for: %v", err)
	}
	_, err := h.c.AuditPage(context.Background(), "0", 3, "")
	var ae *Error
	if !errors.As(err, &ae) || ae.Kind != KindTooLarge || !strings.Contains(err.Error(), "more than the 3 entries asked for") || !strings.Contains(err.Error(), "GET /api/v1/logs/audit") {
		t.Fatalf("a page of 4 entries when 3 were asked for: got %v", err)
	}
}
