package mattersview

import (
	"path/filepath"
	"strings"
	"testing"
)

// The console's receipt says what is true now (issue 25 case 7): once a
// restore brought a deletion's matters back, the deletion's receipt says
// by which restore, and that re-running the file would delete them again.
func TestReceiptViewSaysRestoredAndWhatRerunDoes(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(2)
	h.writeFile("m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	h.press("n")
	h.burst(filepath.Join(h.dir, "m.csv"))
	h.press("enter", "X")
	h.typeText("2")
	h.press("enter")
	h.runTasks()
	if v := h.view(); !strings.Contains(v, "re-running m.csv now would delete only") {
		t.Errorf("the deletion's receipt does not say what re-running does:\n%s", v)
	}
	h.press("U")
	h.typeText("2")
	h.press("enter")
	h.runTasks()
	if h.p.(*Model).receipt.ID != 1 {
		h.press("esc")
		if v := h.view(); !strings.Contains(v, "restored by") {
			t.Errorf("the receipt list does not say receipt 1 was restored:\n%s", v)
		}
		h.press("down", "enter")
	}
	v := h.view()
	for _, want := range []string{"complete; restored by receipt 2 (2 pairs)", "re-running m.csv now would delete again the 2 matters receipt 2 restored"} {
		if !strings.Contains(v, want) {
			t.Errorf("receipt 1 after the restore lacks %q:\n%s", want, v)
		}
	}
}
