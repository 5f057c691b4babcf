package uploadview

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// uploadEvidence is the run's line of the service's own audit entries
// (api:vault_upload_files of the token's user for the project, within the
// run's time), from the local mirror: run inside the upload task, never
// in Update. Right after a run the mirror rarely covers it, so the line
// usually says to sync; `vaultdeck uploads` shows it again later.
// remedy is the hint when the mirror stops short of the run (a key in the
// demo, else the shell command: page.Env.ChoreHint); short says so; later
// is said after it (where to see the line again).
func uploadEvidence(ctx context.Context, be page.Backend, st *store.Store, projectID string, from, to time.Time, remedy, later string) (line string, short bool) {
	if st == nil || be == nil {
		return "audit evidence: unknown (no local database)", false
	}
	log, who, err := audit.LogOf(ctx, be)
	if err != nil {
		return "audit evidence: unknown (" + err.Error() + ")", false
	}
	ev, err := audit.FindEvidence(ctx, st, log, audit.Action{Type: audit.TypeUpload, User: who.Email,
		From: from, To: to, ProjectID: projectID})
	if err != nil {
		return "audit evidence: unknown (" + err.Error() + ")", false
	}
	return "audit: " + ev.Line(remedy) + later, !ev.Covered
}

// evidenceMsg is the run's evidence line read again.
type evidenceMsg struct {
	view  page.ID
	line  string
	short bool
}

// evidenceAgain reads the finished run's evidence line again, in a
// command (no IO in Update).
func (m *Model) evidenceAgain() tea.Cmd {
	f := m.shared.evidenceAgain()
	if f == nil {
		return nil
	}
	ctx, view, remedy := m.env.Context(), m.id, m.env.ChoreHint(page.ChoreSyncAudit)
	return func() tea.Msg {
		line, short := f(ctx, remedy)
		return evidenceMsg{view: view, line: line, short: short}
	}
}
