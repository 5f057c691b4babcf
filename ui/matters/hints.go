package matters

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ContextKeys implements page.KeyHinter: the mode's keys (Help), less enter
// where there is no row to open, and nothing of the page's own while a
// confirmation has the keys (the root offers enter and esc).
func (m *Model) ContextKeys() []key.Binding {
	if m.confirm != nil {
		return nil
	}
	empty := m.mode != modePath && m.table() != nil && m.table().Len() == 0
	out := []key.Binding{}
	for _, b := range m.Help() {
		if empty && len(b.Keys()) == 1 && b.Keys()[0] == "enter" {
			continue // enter opens the selected row: there is none
		}
		out = append(out, b)
	}
	if m.mode != modePath && m.mode != modeRun && m.table() != nil {
		out = append(out, widgets.TableHints(m.env.Keys, m.table())...)
	}
	return out
}
