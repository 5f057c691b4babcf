package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestHelpScrollsAt40x12: at 40x12 the help overlay is longer than the
// body; j and G scroll it to its last line instead of cutting it off.
func TestHelpScrollsAt40x12(t *testing.T) {
	m, _ := newApp(t, false)
	send(m, tea.WindowSizeMsg{Width: 40, Height: 12})
	send(m, pagetest.Key("?"))
	v := m.View()
	if strings.Contains(v, "press ? or esc") {
		t.Fatalf("help fits in 40x12? test needs a longer help:\n%s", v)
	}
	if n := strings.Count(v, "\n") + 1; n != 12 {
		t.Errorf("frame is %d lines", n)
	}
	first := v
	send(m, pagetest.Key("j"))
	if m.View() == first {
		t.Errorf("j did not scroll help:\n%s", m.View())
	}
	send(m, pagetest.Key("G"))
	if v := m.View(); !strings.Contains(v, "press ? or esc") || !m.help {
		t.Errorf("G did not reach the end of help:\n%s", v)
	}
	send(m, pagetest.Key("esc"))
	if m.help {
		t.Error("esc did not close help")
	}
}
