package audit_test

import (
	"strings"
	"testing"

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
