package filestatusview

// The paste input (a): file IDs pasted or typed, checked before anything is
// sent, then tracked and polled with the rest.

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

func (m *Model) openPaste() {
	m.pasting = true
	m.paste.SetValue("")
	m.paste.Focus()
}

// pasteKey edits the paste input. Line breaks and tabs in a bracketed paste
// become spaces first: the input drops control characters, which would
// otherwise glue "id1\nid2" into one ID.
func (m *Model) pasteKey(msg tea.KeyMsg) tea.Cmd {
	if msg.Type == tea.KeyRunes {
		runes := make([]rune, len(msg.Runes))
		for i, r := range msg.Runes {
			if r == '\n' || r == '\r' || r == '\t' {
				r = ' '
			}
			runes[i] = r
		}
		msg.Runes = runes
	}
	switch m.paste.Edit(msg) {
	case widgets.Submitted:
		if err := checkIDs(ParseIDs(m.paste.Value())); err != nil {
			m.paste.Focus() // the text stays, to be corrected; nothing is sent
			return page.Error(err)
		}
		m.pasting = false
		return m.addIDs(m.paste.Value())
	case widgets.Cancelled:
		m.pasting = false
	}
	return nil
}

// addIDs adds pasted IDs and polls them now if no poll is running; a
// running poll's completion re-arms the tick, which then includes them.
func (m *Model) addIDs(text string) tea.Cmd {
	n := m.tr.Add(ParseIDs(text))
	if n == 0 {
		return page.Status("no new file IDs")
	}
	m.stopped = false
	cmds := []tea.Cmd{m.rebuild(m.env.Clock()), page.Status(plural.Count(n, "file ID") + " added")}
	if !m.inFlight {
		cmds = append(cmds, m.startPoll(false))
	}
	return tea.Batch(cmds...)
}
