package matters

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// enter on an outcome puts its whole detail on the status line; a pair
// deleted without a code or a detail read "line 2: deleted  ", two spaces
// trailing where the empty parts were joined (seen by the key walk).
func TestWholeDetailSaysOnlyWhatIsThere(t *testing.T) {
	h := newHarness(t, false)
	m := h.live(1)[0]
	h.writeFile("one.csv", "client_id,matter_id\n"+m.ClientID+","+m.MatterID+"\n")
	h.press("n")
	h.burst(h.dir + "/one.csv")
	h.press("enter", "X")
	h.typeText("1")
	h.press("enter")
	if done := h.runTasks(); len(done) != 1 || done[0].Err != nil {
		t.Fatalf("task: %+v", done)
	}
	h.out = nil
	h.press("enter")
	if len(h.out) != 1 || h.out[0].(page.StatusMsg).Text != "line 2: deleted" {
		t.Fatalf("enter on a deleted pair: %q", h.out)
	}
}
