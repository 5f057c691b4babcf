package uploadview_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TestUploadSummaryOffersTheSyncHere: in a demo-like session (the console
// runs the audit sync itself, page.Chores) the summary's audit line offers
// the key, not `vaultdeck audit sync` in a shell that cannot reach the
// demo's store, and the key runs the sync.
func TestUploadSummaryOffersTheSyncHere(t *testing.T) {
	r := newRigWith(t, false, func(c page.Backend, st *store.Store) *page.Chores {
		return &page.Chores{SyncAudit: func(ctx context.Context, _ page.Progress) (page.Outcome, error) {
			res, err := (&audit.Job{Svc: c, Mirror: st}).Sync(ctx)
			if err != nil {
				return page.Outcome{}, err
			}
			return page.Outcome{Text: fmt.Sprintf("audit sync: %d entries listed", res.Listed)}, nil
		}}
	})
	key := r.env.Keys.RunHere.Help().Key
	tm := teatest.NewTestModel(t, r.app, teatest.WithInitialTermSize(200, 24))
	waitFor(t, tm, "duplicate mode: skip")
	tm.Type(filepath.Join(r.dir, "exports"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "2 files")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Type 2 to confirm")
	tm.Type("2")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "upload: 2 uploaded", "press "+key+" to run the audit sync here")
	tm.Type(key)
	// the summary reads the evidence again once the sync ends: seen by
	// hand in the demo, it kept 'not yet in the mirror: press L ...'
	// after L's sync had listed the upload's entries
	waitFor(t, tm, "entries listed", "audit log records it")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	v := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	if !strings.Contains(v, "upload: 2 uploaded") || strings.Contains(v, "vaultdeck uploads") {
		t.Errorf("the summary names a shell command the demo's store is out of reach of:\n%s", v)
	}
	if !strings.Contains(v, "audit log records it") || strings.Contains(v, "not yet in the mirror") {
		t.Errorf("after the sync the summary still reads:\n%s", v)
	}
}
