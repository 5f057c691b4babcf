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

// Seen by hand (vd, 120x40): P on the projects list said 'not on this
// page'; V then opened the name prompt, and esc closed it onto the same P
// line, as if news of the esc. A notice is news of the key that caused it:
// a key the root takes (:, V, ?, C) takes it away too.
func TestANoticeLeavesAtTheRootsKeys(t *testing.T) {
	m, _ := newApp(t, false)
	send(m, pagetest.Key("p"))
	if m.Status() == "" {
		t.Fatal("p on a page without it said nothing")
	}
	send(m, pagetest.Key(":"))
	send(m, pagetest.Key("esc"))
	if st := m.Status(); st != "" {
		t.Errorf("after : and esc the line still says %q", st)
	}
}
