package mattersview

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
)

// TestReceiptShowsAuditEvidence: the receipt view names the service's own
// api:client_matter_management entries of the run once the mirror covers
// its time, and says to run audit sync before that.
func TestReceiptShowsAuditEvidence(t *testing.T) {
	h := newHarness(t, false)
	// the receipt is stamped by this machine's clock: the simulator's
	// stamps must be of the same time
	h.s.Advance(time.Since(h.s.Now()))
	ms := h.live(2)
	h.writeFile("m.csv", ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	h.press("n")
	h.burst(h.dir + "/m.csv")
	h.press("enter", "X")
	h.typeText("2")
	h.press("enter")
	if done := h.runTasks(); len(done) != 1 || done[0].Err != nil {
		t.Fatalf("run: %+v", done)
	}
	if v := h.view(); !strings.Contains(v, "Receipt 1") || !strings.Contains(v, "audit: not yet in the mirror: run `vaultdeck audit sync`") {
		t.Fatalf("before a sync:\n%s", v)
	}
	h.s.Advance(10 * time.Minute)
	m := h.p.(*Model)
	if _, err := (&audit.Job{Svc: m.env.Backend, Mirror: h.st}).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.press("f", "f") // the outcome filter round to all again: the receipt is read anew
	if v := h.view(); !strings.Contains(v, "audit: the service's audit log records it: 1 entry") {
		t.Fatalf("after a sync:\n%s", v)
	}
}
