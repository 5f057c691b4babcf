package projectview

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ContextKeys implements page.KeyHinter: the keys of the open tab and its
// rows; upload and delete come from the key map, so read-only has none.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	switch {
	case m.confirm != nil || m.access.CapturesInput():
		return nil // the dialog says what it wants; the root offers enter and esc
	case !m.known():
		if m.unresolved != "" {
			return []key.Binding{keys.Hint(k.Refresh, "retry")}
		}
		return nil
	case m.Table.Filtering():
		return widgets.TableHints(k, m.Table)
	}
	var out []key.Binding
	other := "files"
	if m.tab == tabFiles {
		other = "users"
		if m.Table.Len() > 0 {
			out = append(out, keys.Hint(k.Enter, "file status"), keys.Hint(k.Mark, "mark"))
		}
		out = append(out, keys.Hint(k.StatusFilter, "status filter"))
	}
	out = append(out, keys.Hint(k.NextTab, other))
	if !m.going() { // a project being deleted takes no upload and no second delete
		if m.tab == tabFiles && m.Table.Len() > 0 {
			out = append(out, keys.Hint(k.DeleteFiles, "delete files"))
		}
		out = append(out, keys.Hint(k.Upload, "upload"), keys.Hint(k.Delete, "delete"))
		if m.tab == tabUsers && m.Table.Len() > 0 && k.ChangeLevel.Enabled() {
			out = append(out, keys.Hint(k.ChangeLevel, "level"), keys.Hint(k.DeleteFiles, "remove share"))
		}
		if m.tab == tabUsers && k.GrantAccess.Enabled() {
			out = append(out, keys.Hint(k.GrantAccess, "grant"))
		}
	}
	out = append(out, widgets.TableHints(k, m.Table)...)
	if m.tab == tabFiles {
		out = append(out, keys.Hint(k.ToggleIDs, "whole IDs"))
	}
	return append(out, keys.Hint(k.Refresh, "refresh"))
}
