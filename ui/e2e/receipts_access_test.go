package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestConsoleUndoesAnAccessJobFromReceipts: the built binary against
// `vaultdeck sim --leaver`, in tmux. At 80x24, keys one at a time: :person
// removes two direct shares (job 1), :receipts lists it, enter opens its
// receipt, U plans the undo, the typed count runs it (job 2) and the
// shares are back at MANAGE. At 120x40, in one burst, U on job 2 (the
// undo's own undo) takes them away again (job 3).
func TestConsoleUndoesAnAccessJobFromReceipts(t *testing.T) {
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--leaver", "--no-rate-limit")
	env := childEnv(t, nil, "VAULTDECK_HOME="+t.TempDir(), "VAULTDECK_TOKEN="+sp.tokens["admin"], "VAULTDECK_BASE_URL="+sp.base, "TERM=xterm-256color")
	c, err := api.New(api.Config{BaseURL: sp.base, Token: api.StaticToken(sp.tokens["admin"]), Limits: api.Limits{Vault: -1, Audit: -1}})
	if err != nil {
		t.Fatal(err)
	}
	leaver := leaverOf(t, c)
	if o, e, code := vd(t, bin, env, "", "access", "crawl"); code != 0 {
		t.Fatalf("crawl: exit %d: %s %s", code, o, e)
	}
	direct := func() map[string]string {
		ps, _, err := c.Projects(api.ProjectQuery{}).Collect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, p := range ps {
			ds, err := p.Sharing.Direct()
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if strings.EqualFold(d.Email, leaver) {
					out[p.Name] = d.AccessLevel
				}
			}
		}
		return out
	}
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
