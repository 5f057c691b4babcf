package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// auditEvidence finds the service's own audit entries for something
// vaultdeck did, in the local mirror only (no audit request): whoami
// names the workspace's log and the token's user. ok is false when that
// could not be asked; the reason is in note.
func (r *runner) auditEvidence(ctx context.Context, st *store.Store, a audit.Action) (ev audit.Evidence, note string, ok bool) {
	c, err := r.client()
	if err != nil {
		return ev, "unknown: " + err.Error(), false
	}
	log, who, err := audit.LogOf(ctx, c)
	if err != nil {
		return ev, "unknown: " + err.Error(), false
	}
	a.User = who.Email
	ev, err = audit.FindEvidence(ctx, st, log, a)
	if err != nil {
		return ev, "unknown: " + err.Error(), false
	}
	return ev, ev.String(), true
}

// printEvidence writes the evidence lines of a human-readable outcome.
func printEvidence(w io.Writer, ev audit.Evidence, note string) {
	fmt.Fprintf(w, "audit     %s\n", sanitize.Line(note))
	for _, e := range ev.Entries {
		fmt.Fprintf(w, "          %s  %s  %s  %s\n", e.Time.UTC().Format(time.RFC3339), sanitize.Line(e.Type), sanitize.Line(e.User), sanitize.Line(e.ID))
	}
}

// evidenceJSON is the evidence for --json.
func evidenceJSON(ev audit.Evidence, note string, ok bool) map[string]any {
	ids := []string{}
	for _, e := range ev.Entries {
		ids = append(ids, e.ID)
	}
	m := map[string]any{"summary": note, "entry_ids": ids, "covered": ev.Covered}
	if !ok {
		m["covered"] = nil
	}
	return m
}

// receiptAction is what a matter receipt's evidence is: the service's
// client-matter entries of the run's time.
func receiptAction(rc store.Receipt, now time.Time) audit.Action {
	to := rc.FinishedAt
	if to.IsZero() {
		to = now
	}
	return audit.Action{Type: audit.TypeMatters, From: rc.StartedAt, To: to}
}
