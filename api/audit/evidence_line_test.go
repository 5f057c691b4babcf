package audit_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// Issue 29.7: "1 audit entry so far of the service record it" reads
// wrong. The line says what records the action (the service's audit log),
// how many entries, and, when the mirror stops short, that more may come
// and the remedy the caller gives (a shell command, or a key in the demo).
func TestEvidenceLineReads(t *testing.T) {
	one := []store.AuditEntry{{ID: "a"}}
	two := []store.AuditEntry{{ID: "a"}, {ID: "b"}}
	for _, c := range []struct {
		ev   audit.Evidence
		want string
	}{
		{audit.Evidence{Entries: one, Covered: true}, "the service's audit log records it: 1 entry"},
		{audit.Evidence{Entries: two, Covered: true}, "the service's audit log records it: 2 entries"},
		{audit.Evidence{Entries: one}, "the service's audit log records it: 1 entry so far (the mirror stops before the action ends: press L)"},
		{audit.Evidence{Covered: true}, "the service's audit log has no entry for it (the mirror covers that time)"},
		{audit.Evidence{}, "not yet in the mirror: press L"},
	} {
		if got := c.ev.Line("press L"); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
	if got := (audit.Evidence{}).String(); !strings.HasSuffix(got, "run `vaultdeck audit sync`") {
		t.Errorf("String (the command line's) gives the shell command: %q", got)
	}
}

// TestEvidenceLineWhileTheServiceMayStillStamp: seen by hand in the demo
// at 120x40, a project deleted at 09:07:32 and L pressed at once (twice):
// the detail kept reading '1 entry so far (the mirror stops before the
// action ends: press L to run the audit sync here)', since no sync can
// cover the action before its window (EvidenceSlack) is over: the hint
// asked for a key that could not help yet. A mirror synced after the action
// but before its window ends says until when, and the remedy after then.
func TestEvidenceLineWhileTheServiceMayStillStamp(t *testing.T) {
	at := time.Date(2026, 11, 27, 9, 7, 32, 0, time.UTC)
	m := newFakeMirror()
	ctx := context.Background()
	mine := store.AuditEntry{ID: "1", Type: audit.TypeDeleteProject, User: "me@firm.test", Time: at, Raw: []byte(`{}`)}
	if err := m.SaveAuditPage(ctx, store.AuditMirrorPage{Log: "L", Entries: []store.AuditEntry{mine}, Cursor: "1", CaughtUp: true, At: at.Add(8 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	ev, err := audit.FindEvidence(ctx, m, "L", audit.Action{Type: audit.TypeDeleteProject, User: "me@firm.test", From: at, To: at})
	if err != nil || ev.Covered || len(ev.Entries) != 1 {
		t.Fatalf("%+v %v", ev, err)
	}
	want := "the service's audit log records it: 1 entry so far (the service may stamp more until 09:09:32 UTC; then press L)"
	if got := ev.Line("press L"); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
