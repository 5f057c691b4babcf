package projectsview

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ContextKeys implements page.KeyHinter: the keys that act on the list now.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	if m.Table.Filtering() {
		return widgets.TableHints(k, m.Table)
	}
	var out []key.Binding
	if m.Table.Len() > 0 {
		out = append(out, keys.Hint(k.Enter, "open"))
	}
	out = append(out, widgets.TableHints(k, m.Table)...)
	return append(out, keys.Hint(k.Refresh, "refresh"))
}
