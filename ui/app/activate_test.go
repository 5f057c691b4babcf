package app

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// poller is a stub page that records activation changes.
type poller struct {
	stub
	events []string
}

func (p *poller) Activate() tea.Cmd {
	p.events = append(p.events, "on")
	return func() tea.Msg { return resumed{} }
}
func (p *poller) Deactivate() { p.events = append(p.events, "off") }

type resumed struct{}

// A covered page is deactivated; it is activated again, and its command
// run, when the page above it is popped.
func TestCoveredPageIsDeactivatedAndResumed(t *testing.T) {
	m, _ := newApp(t, false)
	under := &poller{stub: stub{id: 900, title: "files"}}
	m.Update(page.Push{Page: under})
	if len(under.events) != 0 {
		t.Fatalf("push of the page itself changed activation: %v", under.events)
	}
	m.Update(page.Open{Route: "recyclebin"})
	if got := under.events; len(got) != 1 || got[0] != "off" {
		t.Fatalf("covering did not deactivate: %v", got)
	}
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if got := under.events; len(got) != 2 || got[1] != "on" {
		t.Fatalf("uncovering did not activate: %v", got)
	}
	if cmd == nil {
		t.Fatal("Activate's command was dropped")
	}
	if _, ok := cmd().(resumed); !ok {
		t.Error("Activate's command was not returned as is")
	}
	// Popping the page itself deactivates it for good.
	m.Update(page.Pop{})
	if got := under.events; got[len(got)-1] != "off" {
		t.Errorf("popped page still active: %v", got)
	}
}
