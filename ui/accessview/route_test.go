package accessview

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// statuses runs cmd as the program would and returns the status lines it
// raised (an error's text, or a status's).
func statuses(t *testing.T, m *Model, cmd tea.Cmd) []string {
	t.Helper()
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []string
		for _, c := range msg {
			out = append(out, statuses(t, m, c)...)
		}
		return out
	case page.StatusMsg:
		if msg.Err != nil {
			return []string{msg.Err.Error()}
		}
		return []string{msg.Text}
	default:
		_, next := m.Update(msg)
		return statuses(t, m, next)
	}
}

// TestColonAccessUserOpensThePersonOrSaysWhyNot: `:access user EMAIL`
// typed in the console shows that person's projects, as the command and a
// saved view do; an address the snapshot does not hold says so with the
// close matches (the command's exit 1), instead of the people list with
// no word about the argument (seen by hand: `:access user typo@x` and
// `:access user g.osei@…` both landed on the people list, silently).
func TestColonAccessUserOpensThePersonOrSaysWhyNot(t *testing.T) {
	st, email, _ := twoSnapshots(t)
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	deps := Deps{Store: st, Profile: "work"}
	open := func(arg string) (*Model, []string) {
		t.Helper()
		if err := Check(arg); err != nil {
			t.Fatalf("Check(%q) refused it: %v", arg, err)
		}
		m := Route(deps)(env, arg).(*Model)
		m.SetSize(120, 30)
		return m, statuses(t, m, m.Init())
	}

	m, said := open("user " + email)
	if m.tab != tabPerson || !strings.Contains(m.Title(), email) || len(said) > 0 {
		t.Errorf(":access user %s opened %q (said %q):\n%s", email, m.Title(), said, m.View())
	}

	typo := strings.TrimSuffix(email, "m") // .com → .co
	m, said = open("user " + typo)
	if len(said) != 1 || !strings.Contains(said[0], typo+" is not in the access snapshot of ") || !strings.Contains(said[0], "did you mean "+strings.ToLower(email)) {
		t.Errorf(":access user %s said %q", typo, said)
	}
	if m.tab != tabPeople {
		t.Errorf(":access user %s stays on %q: the people list is where the close matches are", typo, m.Title())
	}

	if m, _ = open("diff"); m.tab != tabChanges {
		t.Errorf(":access diff opened %q on tab %d", m.Title(), m.tab)
	}
	for _, bad := range []string{"user", "user a@x b@x", "nobody", "user g.osei"} {
		if err := Check(bad); err == nil || !strings.Contains(err.Error(), "access user EMAIL") {
			t.Errorf("Check(%q) = %v: the console must say what :access takes", bad, err)
		}
	}
}
