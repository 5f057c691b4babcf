package mattersview

import (
	"path/filepath"
	"strings"
	"testing"
)

// The console's preview of a file an earlier receipt deleted, and a
// restore brought back, warns as the headless preview does (matters.Earlier),
// on the screen and in the confirmation; its receipts name whoami's e-mail.
func TestThePreviewWarnsOfEarlierDeletionsOfTheFile(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(2)
	h.writeFile("m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	open := func() {
		h.press("n")
		h.burst(filepath.Join(h.dir, "m.csv"))
		h.press("enter")
	}
	open()
	if strings.Contains(h.view(), "earlier") {
		t.Fatalf("a first preview warns of earlier runs:\n%s", h.view())
	}
	h.press("X")
	h.typeText("2")
	h.press("enter")
	if done := h.runTasks(); len(done) != 1 || done[0].Err != nil {
		t.Fatalf("delete: %+v", done)
	}
	h.press("U")
	h.typeText("2")
	h.press("enter")
	if done := h.runTasks(); len(done) != 1 || done[0].Err != nil {
		t.Fatalf("restore: %+v", done)
	}
	h.press("esc")
	open()
	v := h.view()
	if !strings.Contains(v, "earlier: receipt 1 deleted this file's pairs") || !strings.Contains(v, "would delete again") {
		t.Errorf("the preview of a file receipt 1 deleted and receipt 2 restored:\n%s", v)
	}
	h.press("X")
	if v := h.view(); !strings.Contains(v, "receipt 1 deleted") {
		t.Errorf("the confirmation does not warn:\n%s", v)
	}
	rs, _ := h.st.Receipts()
	for _, r := range rs {
		if !strings.Contains(r.Profile, "@") {
			t.Errorf("receipt %d names %q, want whoami's e-mail", r.ID, r.Profile)
		}
	}
}
