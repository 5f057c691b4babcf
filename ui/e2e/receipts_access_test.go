package e2e

import (
	"strings"
	"testing"
)

// TestConsoleUndoesAnAccessJobFromReceipts: the built binary against
// `vaultdeck sim --leaver`, in tmux. At 80x24, keys one at a time: :person
// removes two direct shares (job 1), :receipts lists it, enter opens its
// receipt, U plans the undo, the typed count runs it (job 2) and the
// shares are back at MANAGE. At 120x40, in one burst, U on job 2 (the
// undo's own undo) takes them away again (job 3).
func TestConsoleUndoesAnAccessJobFromReceipts(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	r := newLeaverRig(t)
	bin, env, leaver := r.bin, r.env, r.leaver
	direct := func() map[string]string { return r.direct(t) }
	before := direct()
	s := startTmuxSized(t, "80", "24", env, "sh", "-c", bin+` --max-rate 600; echo "EXITED $?"; sleep 600`)
	s.waitForText("Projects ·")
	s.literal(":person " + leaver)
	s.keys("Enter")
	s.waitForText("Reach")
	for _, k := range []string{"x", "j", "j", "x", "X"} {
		s.keys(k)
	}
	s.waitForText("Type 2 to confirm")
	s.keys("2")
	s.keys("Enter")
	s.waitForText("2 of 2 changes done")
	if got := direct(); len(got) != len(before)-2 {
		t.Fatalf("after the removal: %v, before %v", got, before)
	}
	s.literal(":receipts")
	s.keys("Enter")
	s.waitForText("Access jobs")
	s.keys("Enter")
	s.waitForText("(was MANAGE)")
	s.keys("U")
	sc := s.waitForText("Type 2 to confirm")
	if !strings.Contains(sc, "Undo access job 1") || !strings.Contains(sc, "none to MANAGE") {
		t.Fatalf("the undo's plan at 80x24:\n%s", sc)
	}
	s.keys("2")
	s.keys("Enter")
	s.waitForText("undone by job 2")
	s.keys("q")
	s.waitForText("EXITED 0")
	after := direct()
	for name, lvl := range before {
		if after[name] != lvl {
			t.Errorf("%s: %q after the undo, want %q", name, after[name], lvl)
		}
	}

	// 120x40, in bursts: job 2's receipt and U at once, then the count
	s = startTmuxSized(t, "120", "40", env, "sh", "-c", bin+` --max-rate 600; echo "EXITED $?"; sleep 600`)
	s.waitForText("Projects ·")
	s.literal(":receipts 2")
	s.keys("Enter", "U")
	sc = s.waitForText("Type 2 to confirm")
	if !strings.Contains(sc, "Undo access job 2") || !strings.Contains(sc, "MANAGE to none") {
		t.Fatalf("the burst's undo plan at 120x40:\n%s", sc)
	}
	s.keys("2", "Enter")
	s.waitForText("undone by job 3")
	s.keys("Escape")
	s.waitForText("3 jobs")
	s.keys("q")
	s.waitForText("EXITED 0")
	if got := direct(); len(got) != len(before)-2 {
		t.Errorf("after the undo of the undo: %v, before %v: want two fewer", got, before)
	}
	out, _, code := vd(t, bin, env, "", "access", "receipts")
	if code != 0 || strings.Count(out, "complete") != 3 {
		t.Errorf("access receipts: exit %d:\n%s", code, out)
	}
}
