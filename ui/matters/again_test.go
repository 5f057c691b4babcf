package matters

import (
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
		h.press("U")
		h.typeText("2")
		h.press("enter")
		done := h.runTasks()
		if len(done) != 1 || done[0].Err != nil {
			t.Fatalf("restore %d: %+v", i+1, done)
		}
		if i == 0 && !strings.Contains(done[0].Outcome.Text, "restored 2") {
			t.Fatalf("first restore: %q", done[0].Outcome.Text)
		}
		if i == 1 && !strings.Contains(done[0].Outcome.Text, "already restored by receipt 2") {
			t.Errorf("second restore: %q", done[0].Outcome.Text)
		}
	}
	if rs, _ := h.st.Receipts(); len(rs) != 2 {
		t.Errorf("%d receipts, want 2: the second restore did nothing", len(rs))
	}
}
