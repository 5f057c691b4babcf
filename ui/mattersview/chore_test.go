package mattersview

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TestReceiptOffersTheSyncHere: in a demo-like session (the console runs
// the audit sync itself, page.Chores) the receipt's audit line offers the
// key instead of `vaultdeck audit sync` in a shell that cannot reach the
// demo's store; once the sync the key ran finishes, the receipt's
// evidence is read anew.
func TestReceiptOffersTheSyncHere(t *testing.T) {
	h := newHarness(t, false)
	h.s.Advance(time.Since(h.s.Now())) // the receipt is stamped by this machine's clock
	m := h.p.(*Model)
	m.env.Chores = &page.Chores{SyncAudit: func(ctx context.Context, _ page.Progress) (page.Outcome, error) {
		_, err := (&audit.Job{Svc: m.env.Backend, Mirror: h.st}).Sync(ctx)
		return page.Outcome{}, err
	}}
	ms := h.live(1)
	h.writeFile("m.csv", ms[0].ClientID+","+ms[0].MatterID+"\n")
	h.press("n")
	h.burst(h.dir + "/m.csv")
	h.press("enter", "X")
	h.typeText("1")
	h.press("enter")
	if done := h.runTasks(); len(done) != 1 || done[0].Err != nil {
		t.Fatalf("run: %+v", done)
	}
	key := m.env.Keys.RunHere.Help().Key
	if v := h.view(); !strings.Contains(v, "not yet in the mirror: press "+key+" to run the audit sync here") || strings.Contains(v, "vaultdeck audit sync") {
		t.Fatalf("before the sync, the hint is not the key:\n%s", v)
	}
	if ch := m.Chore(); ch != page.ChoreSyncAudit {
		t.Fatalf("the receipt asks for chore %q, want the audit sync", ch)
	}
	h.s.Advance(10 * time.Minute)
	h.out = []tea.Msg{m.env.Chores.Start(page.ChoreSyncAudit)()}
	if done := h.runTasks(); len(done) != 1 || done[0].Err != nil {
		t.Fatalf("sync: %+v", done)
	}
	if v := h.view(); !strings.Contains(v, "audit: the service's audit log records it: 1 entry") {
		t.Fatalf("after the sync the key ran, the receipt's evidence was not read anew:\n%s", v)
	}
	if ch := m.Chore(); ch != page.ChoreNone {
		t.Fatalf("after the sync the receipt still asks for %q", ch)
	}
}
