package person

import (
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// TestActivityRules: one pass over a person's entries, newest first.
func TestActivityRules(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	e := func(ago time.Duration, typ, ip string) store.AuditEntry {
		return store.AuditEntry{ID: typ + ip + ago.String(), Time: now.Add(-ago), Type: typ, IP: ip}
	}
	newest := []store.AuditEntry{ // newest first, as the mirror hands them
		e(2*time.Hour, "user:word_add_in_docx_drafting", "198.51.100.9"),
		e(3*time.Hour, "auth:login", "198.51.100.9"), // first use 3h ago, with older entries: new
		e(6*day, "auth:login", "10.0.0.1"),           // used long before too: not new
		e(20*day, "user:outlook_add_in_ask", "10.0.0.2"),
		e(40*day, "auth:login", "10.0.0.1"),
	}
	b := newActivity(now, Options{})
	for _, x := range newest {
		b.add(x)
	}
	var a Activity
	b.finish(&a)
	if a.Total != 5 || a.LastLogin == nil || a.LastLogin.IP != "198.51.100.9" || len(a.Latest) != 5 || a.Latest[0].Time != newest[0].Time {
		t.Fatalf("activity %+v", a)
	}
	want := map[string]Address{
		"198.51.100.9": {IP: "198.51.100.9", First: now.Add(-3 * time.Hour), Last: now.Add(-2 * time.Hour), Count: 2, New: true},
		"10.0.0.1":     {IP: "10.0.0.1", First: now.Add(-40 * day), Last: now.Add(-6 * day), Count: 2},
		"10.0.0.2":     {IP: "10.0.0.2", First: now.Add(-20 * day), Last: now.Add(-20 * day), Count: 1},
	}
	if len(a.Addresses) != 3 || a.Addresses[0].IP != "198.51.100.9" {
		t.Errorf("addresses, most recent first: %+v", a.Addresses)
	}
	for _, ad := range a.Addresses {
		if ad != want[ad.IP] {
			t.Errorf("address %+v, want %+v", ad, want[ad.IP])
		}
	}
	if len(a.Last7) != 2 || a.Last7[0] != (TypeCount{"auth:login", 2}) || len(a.Last30) != 3 {
		t.Errorf("7 days %+v, 30 days %+v", a.Last7, a.Last30)
	}

	// The address someone's history starts with is never new, however
	// recent: there is nothing usual to compare it with.
	b = newActivity(now, Options{})
	b.add(e(time.Hour, "auth:login", "198.51.100.9"))
	b.add(e(2*time.Hour, "auth:login", "10.0.0.1"))
	b.finish(&a)
	if len(a.Addresses) != 2 || a.Addresses[1].IP != "10.0.0.1" || a.Addresses[1].New || !a.Addresses[0].New {
		t.Errorf("the first address is new or the later one is not: %+v", a.Addresses)
	}

	// --since lists every entry from then, beyond LatestN.
	b = newActivity(now, Options{Since: now.Add(-10 * day)})
	for i := range LatestN + 5 {
		b.add(e(time.Duration(i)*time.Minute, "auth:login", "10.0.0.1"))
	}
	b.add(e(11*day, "auth:login", "10.0.0.1"))
	b.finish(&a)
	if len(a.Latest) != LatestN+5 {
		t.Errorf("--since listed %d entries, want %d", len(a.Latest), LatestN+5)
	}
}
