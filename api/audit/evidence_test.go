package audit_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

func TestActionMatches(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	a := audit.Action{Type: audit.TypeUpload, User: "svc@firm.test", From: at, To: at.Add(5 * time.Minute), ProjectID: "p1"}
	e := func(typ, user string, t time.Time, raw string) store.AuditEntry {
		return store.AuditEntry{Type: typ, User: user, Time: t, Raw: []byte(raw)}
	}
	for _, c := range []struct {
		name string
		e    store.AuditEntry
		want bool
	}{
		{"inside", e(audit.TypeUpload, "svc@firm.test", at.Add(time.Minute), `{"data":{"project_id":"p1"}}`), true},
		{"user's case", e(audit.TypeUpload, "SVC@Firm.test", at, `{}`), true},
		{"no project named", e(audit.TypeUpload, "svc@firm.test", at, `{"data":{}}`), true},
		{"within the slack before", e(audit.TypeUpload, "svc@firm.test", at.Add(-time.Minute), `{}`), true},
		{"within the slack after", e(audit.TypeUpload, "svc@firm.test", at.Add(6*time.Minute), `{}`), true},
		{"too early", e(audit.TypeUpload, "svc@firm.test", at.Add(-audit.EvidenceSlack-time.Second), `{}`), false},
		{"too late", e(audit.TypeUpload, "svc@firm.test", at.Add(5*time.Minute+audit.EvidenceSlack+time.Second), `{}`), false},
		{"another user (a colleague's upload)", e(audit.TypeUpload, "ann@firm.test", at, `{}`), false},
		{"another type", e(audit.TypeDeleteProject, "svc@firm.test", at, `{}`), false},
		{"another project", e(audit.TypeUpload, "svc@firm.test", at, `{"data":{"project_id":"p2"}}`), false},
		{"no time", e(audit.TypeUpload, "svc@firm.test", time.Time{}, `{}`), false},
		{"bad JSON still by type, user and time", e(audit.TypeUpload, "svc@firm.test", at, `{`), true},
	} {
		if got := a.Matches(c.e); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if (audit.Action{Type: audit.TypeUpload, From: at, To: at}).Matches(e(audit.TypeUpload, "", at, `{}`)) {
		t.Error("an action without a user matched an entry without one")
	}
}

// TestFindEvidence: from the mirror alone; not covered until it holds
// the log past the window.
func TestFindEvidence(t *testing.T) {
	m := newFakeMirror()
	ctx := context.Background()
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	a := audit.Action{Type: audit.TypeMatters, User: "svc@firm.test", From: at, To: at}
	ev, err := audit.FindEvidence(ctx, m, "L", a)
	if err != nil || ev.Covered || len(ev.Entries) != 0 || !strings.Contains(ev.String(), "not yet in the mirror: run `vaultdeck audit sync`") {
		t.Fatalf("empty mirror: %+v %v %q", ev, err, ev.String())
	}
	mine := store.AuditEntry{ID: "1", Type: audit.TypeMatters, User: "svc@firm.test", Time: at.Add(time.Second), Raw: []byte(`{}`)}
	other := store.AuditEntry{ID: "2", Type: audit.TypeMatters, User: "ann@firm.test", Time: at.Add(time.Second), Raw: []byte(`{}`)}
	if err := m.SaveAuditPage(ctx, store.AuditMirrorPage{Log: "L", Entries: []store.AuditEntry{mine, other}, Cursor: "2"}); err != nil {
		t.Fatal(err)
	}
	ev, _ = audit.FindEvidence(ctx, m, "L", a)
	if ev.Covered || len(ev.Entries) != 1 {
		t.Fatalf("mirror up to the action only: %+v", ev)
	}
	later := store.AuditEntry{ID: "3", Type: "auth:login", User: "x@firm.test", Time: at.Add(time.Hour), Raw: []byte(`{}`)}
	if err := m.SaveAuditPage(ctx, store.AuditMirrorPage{Log: "L", Prev: "2", Entries: []store.AuditEntry{later}, Cursor: "3"}); err != nil {
		t.Fatal(err)
	}
	ev, _ = audit.FindEvidence(ctx, m, "L", a)
	if !ev.Covered || len(ev.Entries) != 1 || ev.Entries[0].ID != "1" || !strings.HasSuffix(ev.String(), "records it: 1 entry") {
		t.Fatalf("mirror past the action: %+v %q", ev, ev.String())
	}
}
