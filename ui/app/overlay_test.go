package app

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.3: over the help (?) and the last errors (!), a key of the
// page under them did nothing, silently: they take the keyboard to scroll.
// A key bound somewhere that neither scrolls nor closes now says what is
// open and how to close it; scrolling stays silent, and a letter no
// binding has stays quiet.
func TestKeysOverAnOverlaySayWhatIsOpen(t *testing.T) {
	for _, open := range []string{"?", "!"} {
		m, _ := newApp(t, false)
		send(m, tea.WindowSizeMsg{Width: 60, Height: 16})
		send(m, pagetest.Key(open))
		before := m.View()
		send(m, pagetest.Key("p"))
		if st := m.Status(); !strings.Contains(st, "esc closes") || len(st) > 60 {
			t.Errorf("%s open, p: status %q; screen:\n%s", open, st, m.View())
		}
		if !m.help && m.errPane == nil {
			t.Errorf("%s: p closed the overlay", open)
		}
		send(m, pagetest.Key("z")) // bound nowhere: quiet
		if m.Status() != "" {
			t.Errorf("%s open, z answered %q", open, m.Status())
		}
		send(m, pagetest.Key("j"))
		if strings.Contains(m.Status(), "esc closes") {
			t.Errorf("%s open, j (scrolls) answered %q", open, m.Status())
		}
		_ = before
	}
}
