package e2e

import (
	"strings"
	"testing"
)

// TestConsoleRemovesAccessFromPerson: the built binary's console against
// `vaultdeck sim --leaver`, in tmux: at 80x24, keys one at a time, x marks
// two reach rows of the leaver, X shows the plan and takes the typed
// count, and the access job removes both direct shares; at 120x40 the same
// as one burst of keys. The service's listing then has neither pair of
// shares, and `access receipts` lists both jobs complete. `--read-only`
// answers X with why.
func TestConsoleRemovesAccessFromPerson(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	r := newLeaverRig(t)
	bin, env, leaver := r.bin, r.env, r.leaver
	direct := func() map[string]string { return r.direct(t) }
	before := direct()
	console := func(w, h string, flags ...string) *tmuxSession {
		s := startTmuxSized(t, w, h, env, "sh", "-c", bin+" --max-rate 600 "+strings.Join(flags, " ")+`; echo "EXITED $?"; sleep 600`)
		s.waitForText("Projects ·")
		s.literal(":person " + leaver)
		s.keys("Enter")
		s.waitForText("Reach")
		return s
	}

	// 80x24, one key at a time: Bellhaven (row 0) and Meridian (row 2)
	s := console("80", "24")
	for _, k := range []string{"x", "j", "j", "x", "X"} {
		s.keys(k)
	}
	sc := s.waitForText("Type 2 to confirm")
	if !strings.Contains(sc, "Change access") || !strings.Contains(sc, "remove") {
		t.Fatalf("the plan at 80x24:\n%s", sc)
	}
	s.keys("2")
	s.keys("Enter")
	s.waitForText("2 of 2 changes done")
	s.keys("q")
	s.waitForText("EXITED 0")

	// 120x40, a burst: Acme (row 3) and Eastgate (row 4)
	s = console("120", "40")
	s.keys("j", "j", "j", "x", "j", "x", "X")
	sc = s.waitForText("Type 2 to confirm")
	if !strings.Contains(sc, "Acme") || !strings.Contains(sc, "Eastgate") {
		t.Fatalf("the burst's plan at 120x40:\n%s", sc)
	}
	s.keys("2", "Enter")
	sc = s.waitForText("access job 2: 2 of 2 changes done")
	if strings.Count(sc, "removed since the snapshot") != 2 {
		t.Errorf("the rows the job changed do not say so:\n%s", sc)
	}
	s.keys("q")
	s.waitForText("EXITED 0")

	after := direct()
	for _, name := range []string{"Bellhaven", "Meridian", "Acme", "Eastgate"} {
		for p := range after {
			if strings.HasPrefix(p, name) {
				t.Errorf("the leaver still has a direct share of %s", p)
			}
		}
	}
	if len(after) != len(before)-4 {
		t.Errorf("direct shares before %v, after %v: want four fewer", before, after)
	}
	out, _, code := vd(t, bin, env, "", "access", "receipts")
	if code != 0 || strings.Count(out, "complete") != 2 {
		t.Errorf("access receipts: exit %d:\n%s", code, out)
	}

	// read-only: X says why, nothing planned
	s = console("80", "24", "--read-only")
	s.keys("X")
	s.waitForText("is off: this session is read-only")
	s.keys("q")
	s.waitForText("EXITED 0")
}
