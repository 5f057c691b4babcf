package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestAuditMirrorBoundsBetweenMicroseconds: the mirror keeps times to the
// microsecond, and a bound given finer than that (the console's C said
// --until NEWEST+1ns) answers as the service's answer does, which compares
// whole times: an entry at .515506 is before .515506001 (and so listed
// with that --until) and not at or after it (so not with that --since).
// The mirror truncated the bound and lost the newest entry (issue 42).
func TestAuditMirrorBoundsBetweenMicroseconds(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "v.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 19, 52, 10, 515506000, time.UTC)
	var entries []AuditEntry
	for i, id := range []string{"a", "b", "c"} {
		entries = append(entries, AuditEntry{ID: id, Time: at.Add(time.Duration(i-2) * time.Microsecond), Type: "t", Raw: []byte(`{}`)})
	}
	if err := s.SaveAuditPage(ctx, AuditMirrorPage{Log: "L", Entries: entries, Cursor: "c"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []AuditFilter{
		{Until: at.Add(time.Nanosecond)}, {Until: at}, {Until: at.Add(-time.Nanosecond)},
		{Since: at.Add(-time.Microsecond + time.Nanosecond)}, {Since: at.Add(-time.Microsecond)},
		// the positions a newest-first walk reads below (an --until) and above
		{Before: AuditPosition{Time: at.Add(time.Nanosecond)}, Newest: true}, {Before: AuditPosition{Time: at.Add(-time.Nanosecond)}, Newest: true},
		{After: AuditPosition{Time: at.Add(-time.Microsecond + time.Nanosecond)}}, {After: AuditPosition{Time: at.Add(-time.Nanosecond)}},
	} {
		var got, want []string
		for _, e := range entries {
			before := f.Before.IsZero() || e.Time.Before(f.Before.Time)
			after := f.After.IsZero() || e.Time.After(f.After.Time)
			if f.Match(e) && before && after {
				want = append(want, e.ID)
			}
		}
		if err := s.AuditEntries(ctx, "L", f, func(e AuditEntry) error { got = append(got, e.ID); return nil }); err != nil {
			t.Fatal(err)
		}
		if f.Newest {
			slices.Reverse(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("since %s until %s, after %s, before %s: the mirror lists %v, the entries' own times %v", f.Since.Format(time.RFC3339Nano), f.Until.Format(time.RFC3339Nano),
				f.After.Time.Format(time.RFC3339Nano), f.Before.Time.Format(time.RFC3339Nano), got, want)
		}
	}
}
