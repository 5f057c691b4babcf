package auditview

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestRouteTimeAndUser: ":audit TIME EMAIL" (what the recycle bin's A
// sends) lands on the deleter's first entry at or after the time, and
// shows only theirs.
func TestRouteTimeAndUser(t *testing.T) {
	probe := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, false, "")
	log := probe.log()
	who := log[len(log)/2].User
	at := log[len(log)/2].Timestamp.Add(-time.Minute).UTC()
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, false, at.Format(time.RFC3339)+" "+who)
	r.run(r.m.Init())
	first := slices.IndexFunc(log, func(e api.AuditEntry) bool { return e.User == who && !e.Timestamp.Before(at.Truncate(time.Second)) })
	sel, ok := r.m.Table.Selected()
	if !ok || sel.ID != log[first].ID {
		t.Fatalf("selected %v, want %s", sel.ID, log[first].ID)
	}
	for _, row := range r.rows() {
		if !strings.Contains(row, who) {
			t.Fatalf("a row of someone else: %s", row)
		}
	}
}

func TestParseRoute(t *testing.T) {
	for _, c := range []struct {
		arg  string
		want route
		err  bool
	}{
		{"", route{}, false},
		{"auth:login", route{Type: "auth:login"}, false},
		{"2026-11-01", route{At: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}, false},
		{"2026-11-01 14:05 ann@firm.test", route{At: time.Date(2026, 11, 1, 14, 5, 0, 0, time.UTC), User: "ann@firm.test"}, false},
		{"2026-11-01T14:05:00Z 10.1.2.3 auth:login", route{At: time.Date(2026, 11, 1, 14, 5, 0, 0, time.UTC), IP: "10.1.2.3", Type: "auth:login"}, false},
		{"36h auth:login", route{At: simNow.Add(-36 * time.Hour), Type: "auth:login"}, false},
		{"7d ann@firm.test", route{At: simNow.Add(-7 * 24 * time.Hour), User: "ann@firm.test"}, false},
		{"2026-13-45", route{}, true},
		// values with spaces, named and quoted as a shell would
		{`user "a b"`, route{User: "a b"}, false},
		{`36h ip '10.0.0.1, 10.0.0.2' type "api:vault delete"`, route{At: simNow.Add(-36 * time.Hour), IP: "10.0.0.1, 10.0.0.2", Type: "api:vault delete"}, false},
		{`user "a b`, route{}, true},
		{`user`, route{}, true},
	} {
		got, err := parseRoute(c.arg, simNow)
		if (err != nil) != c.err || (!c.err && got != c.want) {
			t.Errorf("%q: %+v, %v", c.arg, got, err)
		}
	}
}

// TestEscapesInRowsRenderInert: what an actor wrote (a user name with an
// escape sequence) reaches the screen inert.
func TestEscapesInRowsRenderInert(t *testing.T) {
	row := buildRow(&jobEntry{ID: "1", Type: "auth:login\x1b[31m", User: "eve\x1b]52;c;aGk=\x07@x", IP: "1.2.3.4\x1b[2J"})
	for _, c := range row {
		if strings.ContainsRune(c, 0x1b) || strings.ContainsRune(c, 0x07) {
			t.Fatalf("escape in a cell: %q", c)
		}
	}
	d, _ := detailText(&jobEntry{ID: "1", Raw: []byte(`{"id":"1","type":"x","data":{"k":"\u001b[31mred"}}`)})
	if strings.ContainsRune(d, 0x1b) {
		t.Fatalf("escape in the detail: %q", d)
	}
}

// TestForbiddenSaysWhatIsNeeded: a token without audit rights gets the
// permissions named, not an empty log.
func TestForbiddenSaysWhatIsNeeded(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 100}, false, "")
	r.m.lastErr = nil
	_, cmd := r.m.Update(r.m.failed(&api.Error{Kind: api.KindForbidden, Status: 403, Message: "forbidden"})())
	r.run(cmd)
	if !errors.Is(r.m.lastErr, api.KindForbidden) || !strings.Contains(r.m.View(), "Territory admin or Organization admin") {
		t.Fatalf("view:\n%s", r.m.View())
	}
}

type jobEntry = store.AuditEntry
