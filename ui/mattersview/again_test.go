package mattersview

import (
	"github.com/vaultdeck/vaultdeck/ui/page"
	"path/filepath"
	"strings"
	"testing"
)

// Restoring the same receipt again from the console says it was already
// restored, by which receipt, and sends nothing (no new receipt).
func TestRestoreAgainSaysSo(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(2)
	h.writeFile("m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	h.press("n")
	h.burst(filepath.Join(h.dir, "m.csv"))
	h.press("enter", "X")
	h.typeText("2")
	h.press("enter")
	if done := h.runTasks(); len(done) != 1 || done[0].Err != nil {
		t.Fatalf("delete: %+v", done)
	}
	for i := 0; i < 2; i++ {
		if h.p.(*Model).receipt.ID != 1 { // back to the deletion's receipt
			h.press("esc", "down", "enter")
		}
		h.out = nil
		h.press("U")
		if i == 1 { // said at once, before any count is asked (TestRestoreAlreadyDoneSaysSoBeforeAsking)
			said := false
			for _, msg := range h.out {
				if st, ok := msg.(page.StatusMsg); ok && strings.Contains(st.Text, "already restored by receipt 2") {
					said = true
				}
			}
			if !said || strings.Contains(h.view(), "Type 2 to confirm") {
				t.Errorf("second restore: %v\n%s", h.out, h.view())
			}
			break
		}
		h.typeText("2")
		h.press("enter")
		done := h.runTasks()
		if len(done) != 1 || done[0].Err != nil || !strings.Contains(done[0].Outcome.Text, "restored 2") {
			t.Fatalf("first restore: %+v", done)
		}
	}
	if rs, _ := h.st.Receipts(); len(rs) != 2 {
		t.Errorf("%d receipts, want 2: the second restore did nothing", len(rs))
	}
}

// U on a receipt an earlier restore already restored (here from the
// command line, or another console) says so at once: it asked "Restore
// the 2 matters receipt 1 deleted … Type 2 to confirm", and only after the
// count was typed did the task say nothing was sent.
func TestRestoreAlreadyDoneSaysSoBeforeAsking(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(2)
	h.writeFile("m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	h.press("n")
	h.burst(filepath.Join(h.dir, "m.csv"))
	h.press("enter", "X")
	h.typeText("2")
	h.press("enter")
	h.runTasks()
	h.press("U")
	h.typeText("2")
	h.press("enter")
	h.runTasks()
	if h.p.(*Model).receipt.ID != 1 {
		h.press("esc", "down", "enter")
	}
	h.out = nil
	h.press("U")
	if strings.Contains(h.view(), "Type 2 to confirm") {
		t.Fatalf("a confirmation for a restore already done:\n%s", h.view())
	}
	said := false
	for _, msg := range h.out {
		if st, ok := msg.(page.StatusMsg); ok && strings.Contains(st.Text, "already restored by receipt 2") {
			said = true
		}
	}
	if !said {
		t.Errorf("no word that receipt 2 restored it: %v", h.out)
	}
}

// With no receipt yet the list's head offered "enter open a receipt"
// (the footer already left enter out): enter is named once there is a
// receipt to open.
func TestEmptyReceiptListOffersNoEnter(t *testing.T) {
	h := newHarness(t, false)
	if v := h.view(); !strings.Contains(v, "Matter receipts") || strings.Contains(v, "enter open a receipt") {
		t.Errorf("empty list:\n%s", v)
	}
}
