package console

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestUsersTabChangesALevelAndRemovesAShare: on a project's Users tab, =
// on the leaver's row (a direct READ) plans the raise to MANAGE, takes the
// typed count and runs the access job; X then plans the removal of the
// direct share and runs it. The service's listing shows each.
func TestUsersTabChangesALevelAndRemovesAShare(t *testing.T) {
	s, who, c := writableScreen(t)
	var proj string
	d := directOf(t, c, who) // by project ID
	for _, p := range s.sim.Projects() {
		if p.Name != sim.LeaverDirectManage && d[p.ID] == "READ" && proj == "" {
			proj = p.ID
		}
	}
	if proj == "" {
		t.Fatalf("the leaver has no direct READ share: %v", directOf(t, c, who))
	}
	tm := s.open(t, "project", proj, 120, 40, "tab files")
	tm.Send(runes("/"))
	tm.Send(runes(who))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(runes("="))
	waitFor(t, tm, "Change access", "raise", "Type 1 to confirm")
	tm.Send(runes("1"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "access job 1: 1 of 1 change done")
	if got := directOf(t, c, who)[proj]; got != "MANAGE" {
		t.Fatalf("after =, the leaver's direct share of %s is %q", proj, got)
	}
	tm.Send(runes("X"))
	waitFor(t, tm, "remove", "MANAGE -> -")
	tm.Send(runes("1"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "access job 2: 1 of 1 change done")
	final(t, tm)
	if got, ok := directOf(t, c, who)[proj]; ok {
		t.Fatalf("after X, the leaver still has %q on %s", got, proj)
	}
}

// TestUsersTabInheritedRowSaysWhereItIsChanged: X on a user who reaches
// the project through the workspace share plans nothing, says where it is
// changed, and opens no confirmation.
func TestUsersTabInheritedRowSaysWhereItIsChanged(t *testing.T) {
	s, who, _ := writableScreen(t)
	var proj string
	for _, p := range s.sim.Projects() {
		if p.Name == "Firm Precedents Library" {
			proj = p.ID
		}
	}
	tm := s.open(t, "project", proj, 120, 40, "tab files")
	tm.Send(runes("/"))
	tm.Send(runes(who))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(runes("X"))
	waitFor(t, tm, "nothing to change", "changed in its sharing settings in the web app")
	final(t, tm)
}
