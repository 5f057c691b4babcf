package api

import (
	"errors"
	"testing"
	"time"
)

// TestCheckAuditOrder: ids must ascend above the cursor (case aside);
// times may jitter back within AuditTimeSlack of the latest so far, and no
// further, also by small steps that add up.
func TestCheckAuditOrder(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	item := func(id string, at time.Time) Item[AuditEntry] {
		return Item[AuditEntry]{Value: AuditEntry{ID: id, Timestamp: Time{Time: at}}}
	}
	for _, tc := range []struct {
		name  string
		from  string
		at    time.Time
		items []Item[AuditEntry]
		ok    bool
	}{
		{"ascending", "a0", t0, []Item[AuditEntry]{item("a1", t0), item("a2", t0.Add(time.Millisecond))}, true},
		{"the cursor again", "a1", t0, []Item[AuditEntry]{item("a1", t0)}, false},
		{"back in id", "a1", t0, []Item[AuditEntry]{item("a2", t0), item("a0", t0)}, false},
		{"case aside", "0A", t0, []Item[AuditEntry]{item("0b", t0), item("0C", t0)}, true},
		{"jitter within a second", "a0", t0, []Item[AuditEntry]{item("a1", t0.Add(-900*time.Millisecond))}, true},
		{"back two seconds", "a0", t0, []Item[AuditEntry]{item("a1", t0.Add(-2*time.Second))}, false},
		{"small steps adding up", "a0", time.Time{}, []Item[AuditEntry]{item("a1", t0), item("a2", t0.Add(-600*time.Millisecond)),
			item("a3", t0.Add(-1200*time.Millisecond))}, false},
		{"no time", "a0", t0, []Item[AuditEntry]{item("a1", time.Time{}), item("a2", t0)}, true},
	} {
		err := CheckAuditOrder(tc.from, tc.at, tc.items)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrAuditOrder)) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
