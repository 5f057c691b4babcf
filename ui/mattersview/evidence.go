package mattersview

import (
	"context"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// receiptEvidence is the receipt's line of the service's own audit
// entries (api:client_matter_management of the token's user within the
// run's time), from the local mirror: whoami is asked, the audit log is
// not. Run in the command that loads the receipt, never in Update.
// remedy is the hint when the mirror stops short of the run (a key in the
// demo, else the shell command: page.Env.ChoreHint); short says so.
func receiptEvidence(ctx context.Context, be page.Backend, st *store.Store, rc store.Receipt, now time.Time, remedy string) (line string, short bool) {
	if be == nil || st == nil {
		return "audit evidence: unknown (no service or no local database)", false
	}
	log, who, err := audit.LogOf(ctx, be)
	if err != nil {
		return "audit evidence: unknown (" + err.Error() + ")", false
	}
	to := rc.FinishedAt
	if to.IsZero() {
		to = now
	}
	a := audit.Action{Type: audit.TypeMatters, User: who.Email, From: rc.StartedAt, To: to}
	ev, err := audit.FindEvidence(ctx, st, log, a)
	if err != nil {
		return "audit evidence: unknown (" + err.Error() + ")", false
	}
	out := "audit: " + ev.Line(remedy)
	for i, e := range ev.Entries {
		if i == 3 {
			out += " …"
			break
		}
		out += " · " + e.Time.UTC().Format("15:04:05") + " " + e.ID
	}
	return out, !ev.Covered
}
