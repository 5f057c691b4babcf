package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestAuditMirrorFiltersAndPages: each filter column, grep with LIKE's
// own characters taken literally, newest first, paging by position, the
// cursor check, and ids kept once.
func TestAuditMirrorFiltersAndPages(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "v.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var entries []AuditEntry
	for i := range 10 {
		id := fmt.Sprintf("id-%02d", i)
		entries = append(entries, AuditEntry{ID: id, Time: base.Add(time.Duration(i/2) * time.Hour), // two per instant
			Type: []string{"auth:login", "api:audit_log_fetch"}[i%2], User: fmt.Sprintf("u%d@x.com", i%3),
			IP: fmt.Sprintf("10.0.0.%d", i%4), Raw: fmt.Appendf(nil, `{"id":%q,"note":"%d%%_done"}`, id, i)})
	}
	if err := s.SaveAuditPage(ctx, AuditMirrorPage{Log: "L", Entries: entries[:6], Cursor: "id-05"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAuditPage(ctx, AuditMirrorPage{Log: "L", Prev: "id-03", Entries: entries, Cursor: "id-09"}); !errors.Is(err, ErrAuditCursorMoved) {
		t.Fatalf("a page after a stale cursor: %v", err)
	}
	// the same entries again plus the rest: held once
	if err := s.SaveAuditPage(ctx, AuditMirrorPage{Log: "L", Prev: "id-05", Entries: entries, Cursor: "id-09", CaughtUp: true, At: base.Add(10 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	st, _ := s.AuditState(ctx, "L")
	if st.Entries != 10 || st.Cursor != "id-09" || !st.First.Equal(base) || !st.Last.Equal(base.Add(4*time.Hour)) || !st.CaughtUp.Equal(base.Add(10*time.Hour)) {
		t.Fatalf("state %+v", st)
	}
	ids := func(f AuditFilter) []string {
		var out []string
		if err := s.AuditEntries(ctx, "L", f, func(e AuditEntry) error { out = append(out, e.ID); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, f := range []AuditFilter{
		{}, {Type: "AUTH:LOGIN"}, {User: "U1@X.COM"}, {IP: "10.0.0.2"}, {Grep: "5%_d"}, {Grep: "%"}, {Grep: "1_"},
		{Since: base.Add(time.Hour), Until: base.Add(3 * time.Hour)},
		{Newest: true, Limit: 3}, {User: "u0@x.com", Newest: true},
	} {
		var want []string
		for _, e := range entries {
			if f.Match(e) {
				want = append(want, e.ID)
			}
		}
		if f.Newest {
			slices.Reverse(want)
		}
		if f.Limit > 0 {
			want = want[:f.Limit]
		}
		if got := ids(f); !slices.Equal(got, want) {
			t.Errorf("%+v: got %v, want %v", f, got, want)
		}
	}
	// paging through one instant: positions order by time, then seq
	var e3 AuditEntry
	_ = s.AuditEntries(ctx, "L", AuditFilter{Grep: `"id-03"`}, func(e AuditEntry) error { e3 = e; return nil })
	if got := ids(AuditFilter{After: e3.At(), Limit: 2}); !slices.Equal(got, []string{"id-04", "id-05"}) {
		t.Errorf("after id-03: %v", got)
	}
	if got := ids(AuditFilter{Before: e3.At(), Newest: true, Limit: 2}); !slices.Equal(got, []string{"id-02", "id-01"}) {
		t.Errorf("before id-03: %v", got)
	}
	if id, _ := s.AuditCheckpoint(ctx, "siem"); id != "" {
		t.Errorf("a checkpoint never saved: %q", id)
	}
	s.SaveAuditCheckpoint(ctx, "siem", "id-04")
	s.SaveAuditCheckpoint(ctx, "siem", "id-07")
	if id, _ := s.AuditCheckpoint(ctx, "siem"); id != "id-07" {
		t.Errorf("checkpoint %q", id)
	}
}
