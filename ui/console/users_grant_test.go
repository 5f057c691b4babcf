package console

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestUsersTabGrantsANewAddress: on a project's Users tab, + asks for an
// address and a level, plans the grant with access plan's planner (a
// direct share where there was none), takes the typed count and runs the
// access job: the service's listing then has the share at that level.
func TestUsersTabGrantsANewAddress(t *testing.T) {
	s, who, c := writableScreen(t)
	d := directOf(t, c, who)
	var proj string
	for _, p := range s.sim.Projects() {
		if _, ok := d[p.ID]; !ok && p.Name != sim.LeaverDirectManage && proj == "" {
			proj = p.ID
		}
	}
	if proj == "" {
		t.Fatal("every project has a direct share of the leaver")
	}
	tm := s.open(t, "project", proj, 120, 40, "tab files")
	tm.Send(runes("+"))
	waitFor(t, tm, "grant access:")
	tm.Send(runes(who + " manage"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Change access", "add", "Type 1 to confirm")
	tm.Send(runes("1"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "access job 1: 1 of 1 change done")
	final(t, tm)
	if got := directOf(t, c, who)[proj]; got != "MANAGE" {
		t.Errorf("the direct share after the grant is %q, want MANAGE", got)
	}
}

// TestUsersTabGrantRefusesALevelItDoesNotKnow: a level other than READ
// or MANAGE is refused by name and plans nothing.
func TestUsersTabGrantRefusesALevelItDoesNotKnow(t *testing.T) {
	s, who, _ := writableScreen(t)
	proj := s.sim.Projects()[0].ID
	tm := s.open(t, "project", proj, 120, 40, "tab files")
	tm.Send(runes("+"))
	waitFor(t, tm, "grant access:")
	tm.Send(runes(who + " owner"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, `"owner" is not a level: READ or MANAGE`)
	final(t, tm)
}
