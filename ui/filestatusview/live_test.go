package filestatusview

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
)

// The age and the stuck flag advance with the clock between polls: no poll
// result and no tick is delivered here, only time passes before rendering.
func TestAgeAndStuckAdvanceWithoutPoll(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	fake.set("ready_to_query", "b")
	r := newRig(t, fake, "a,b", Options{StuckAfter: 20 * time.Minute})
	r.run(r.m.Init())
	if v := r.m.View(); !strings.Contains(v, "stuck 0") || strings.Contains(lineWith(v, "a.pdf"), "stuck") {
		t.Fatalf("stuck right after the first answer:\n%s", v)
	}
	calls := fake.nCalls()
	r.now = r.now.Add(21 * time.Minute)
	v := r.m.View()
	for _, want := range []string{"21m00s", "stuck 1", "stuck: > 20m"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if !strings.Contains(lineWith(v, "a.pdf"), "stuck") {
		t.Errorf("row not flagged:\n%s", v)
	}
	if fake.nCalls() != calls {
		t.Errorf("rendering polled the service")
	}
}

// lineWith is the first line of v containing s.
func lineWith(v, s string) string {
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// After polling has stopped (here: a fatal error), ages still advance.
func TestAgeAdvancesAfterPollingStopped(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	fake.err = &api.Error{Kind: api.KindForbidden, Status: 403, Message: "no"}
	r.deliver()
	if !r.m.stopped {
		t.Fatal("polling did not stop on 403")
	}
	r.now = r.now.Add(2 * time.Hour)
	if v := r.m.View(); !strings.Contains(v, "2h00m") {
		t.Errorf("age did not advance after polling stopped:\n%s", v)
	}
}

// Sorting by "In status" orders by entry time, so the order stays right
// while the rendered ages grow.
func TestSortByAgeUsesEntryTime(t *testing.T) {
	const newID = "00000000-0000-4000-8000-00000000000e" // typed into the prompt, so a UUID
	fake := newFake()
	fake.set("processing", "old")
	r := newRig(t, fake, "old", Options{})
	r.run(r.m.Init())
	r.now = r.now.Add(5 * time.Minute)
	fake.set("processing", newID)
	r.key(runes("a"))
	r.key(runes(newID))
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	r.m.Table.SetSort(colInStatus, false)
	if ids := r.m.Table.VisibleIDs(); len(ids) != 2 || ids[0] != newID {
		t.Fatalf("ascending age order = %v, want new first", ids)
	}
	r.now = r.now.Add(time.Hour)
	v := r.m.View()
	if i, j := strings.Index(v, "1h00m"), strings.Index(v, "1h05m"); i < 0 || j < 0 || i > j {
		t.Errorf("ages not rendered youngest first:\n%s", v)
	}
}
