package mattersview

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

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

// y on a receipt's or a preview's row copies its pair as a line of a
// matter file (the line number it copied named nothing to send again); on
// the list, the receipt's ID.
func TestCopyGivesThePair(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(2)
	h.writeFile("two.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n\"A,B\",\n")
	h.press("n")
	h.burst(h.dir + "/two.csv")
	h.press("enter")
	m := h.p.(*Model)
	if got := m.SelectedID(); got != `"A,B",` {
		t.Errorf("preview: y copies %q, want the refused pair as a CSV line", got)
	}
	h.press("X")
	h.typeText("2")
	h.press("enter")
	if done := h.runTasks(); len(done) != 1 || done[0].Err != nil {
		t.Fatalf("task: %+v", done)
	}
	m = h.p.(*Model)
	h.press("x", "x") // x marks and moves down
	want := []string{ms[0].ClientID + "," + ms[0].MatterID, ms[1].ClientID + "," + ms[1].MatterID}
	if got := m.MarkedIDs(); !slices.Equal(got, want) {
		t.Errorf("receipt: y copies %q, want %q", got, want)
	}
	h.press("esc")
	if got := m.SelectedID(); got != "1" {
		t.Errorf("receipt list: y copies %q, want the receipt's ID", got)
	}
}

// At 80 columns the preview's plan line ran past the edge and the
// terminal cut it ("under a minute at 150 reques"; at 60 with no rate limit too): its lines wrap.
func TestPreviewHeadWrapsAtItsWidth(t *testing.T) {
	h := newHarness(t, false)
	h.writeFile("f.csv", "client_id,matter_id\nC-1,M-1\n,M-2\n")
	h.press("n")
	h.p.SetSize(60, 24)
	for _, l := range strings.Split(h.view(), "\n") { // the path's prompt and its hint
		if ansi.StringWidth(l) > 60 {
			t.Errorf("typing a path at 60 columns, a line is %d wide: %q", ansi.StringWidth(l), l)
		}
	}
	h.burst(h.dir + "/f.csv")
	h.press("enter")
	for _, w := range []int{60, 80} {
		h.p.SetSize(w, 24)
		v := h.view()
		for _, l := range strings.Split(v, "\n") {
			if ansi.StringWidth(l) > w {
				t.Errorf("at %d columns a line is %d wide: %q", w, ansi.StringWidth(l), l)
			}
		}
		if flat := strings.Join(strings.Fields(v), " "); !strings.Contains(flat, "no client-side rate limit") || !strings.Contains(flat, "X delete (you will type 1)") {
			t.Errorf("at %d columns the plan is cut:\n%s", w, v)
		}
	}
}
