package purge

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestFilterFlagsRoundTrip: every flag Set reads, Get writes back as Set
// reads it, so a saved view's line means what it meant when saved.
func TestFilterFlagsRoundTrip(t *testing.T) {
	vals := map[string]string{FlagName: "Share", FlagClientMatter: "123e4567-e89b-12d3-a456-426614174000",
		FlagDeletedBy: "a@b.example", FlagWithin: "36h"}
	var f Filter
	for _, fl := range FilterFlags() {
		if err := f.Set(fl.Name, vals[fl.Name]); err != nil {
			t.Fatalf("--%s %s: %v", fl.Name, vals[fl.Name], err)
		}
		if !strings.Contains(fl.Usage, "`") {
			t.Errorf("--%s's help names no argument", fl.Name)
		}
	}
	var again Filter
	for _, fl := range FilterFlags() {
		if got := f.Get(fl.Name); got != vals[fl.Name] {
			t.Errorf("--%s: Get %q, want %q", fl.Name, got, vals[fl.Name])
		}
		if err := again.Set(fl.Name, f.Get(fl.Name)); err != nil {
			t.Fatal(err)
		}
	}
	if again != f {
		t.Errorf("read back %+v, want %+v", again, f)
	}
	if f.Set(FlagWithin, "0d") == nil || f.Set("grep", "x") == nil {
		t.Error("a bad window or an unknown flag was accepted")
	}
	if (Filter{ClientMatter: "no"}).Check() == nil || (Filter{}).Check() != nil {
		t.Error("Check")
	}
}

// TestFilterKeep: the deleter is matched exactly, the window keeps overdue
// entries, and without a window every entry is kept, overdue ones marked.
func TestFilterKeep(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	entry := func(by string, in time.Duration) *api.RecycleBinEntry {
		e := &api.RecycleBinEntry{DeletedByUserEmail: by}
		e.RecycleBinPurgedScheduledAt.Time = now.Add(in)
		return e
	}
	for _, c := range []struct {
		f             Filter
		e             *api.RecycleBinEntry
		kept, overdue bool
	}{
		{Filter{}, entry("a", -time.Hour), true, true},
		{Filter{}, entry("a", Soon*2), true, false},
		{Filter{DeletedBy: "a"}, entry("A", time.Hour), false, false},
		{Filter{Within: Urgent}, entry("a", 2*Urgent), false, false},
		{Filter{Within: Urgent, DeletedBy: "a"}, entry("a", time.Hour), true, false},
		{Filter{Within: Urgent}, entry("a", -time.Minute), true, true},
	} {
		if kept, overdue := c.f.Keep(c.e, now); kept != c.kept || overdue != c.overdue {
			t.Errorf("%+v: Keep = %v, %v; want %v, %v", c.f, kept, overdue, c.kept, c.overdue)
		}
	}
}
