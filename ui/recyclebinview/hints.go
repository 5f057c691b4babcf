package recyclebinview

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ContextKeys implements page.KeyHinter: the keys that act now.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	switch {
	case m.matter != nil:
		return []key.Binding{keys.Hint(k.Enter, "apply"), keys.Hint(k.Back, "cancel")}
	case m.detail != nil:
		return []key.Binding{keys.Hint(k.Down, "scroll"), keys.Hint(k.AuditAround, "audit log"), keys.Hint(k.Back, "close"), keys.Hint(k.Enter, "close")}
	case m.Table.Filtering():
		return widgets.TableHints(k, m.Table)
	}
	var out []key.Binding
	if m.grouped {
		if m.Table.Len() > 0 {
			out = append(out, keys.Hint(k.Enter, "their entries"))
		}
		out = append(out, keys.Hint(k.ByDeleter, "entries"), keys.Hint(k.PurgingSoon, soonHint(m.soon)), keys.Hint(k.MatterFilter, "client-matter filter"))
		out = append(out, widgets.TableHints(k, m.Table)...)
		return append(out, keys.Hint(k.Refresh, "refresh"))
	}
	if m.Table.Len() > 0 {
		out = append(out, keys.Hint(k.Enter, "detail"), keys.Hint(k.AuditAround, "audit"))
	}
	out = append(out, keys.Hint(k.PurgingSoon, soonHint(m.soon)), keys.Hint(k.ByDeleter, "by deleter"))
	if !m.Table.WantsEsc() && m.deleter != "" {
		out = append(out, keys.Hint(k.Back, "all deleters"))
	}
	out = append(out, keys.Hint(k.MatterFilter, "client-matter filter"))
	if !m.Table.WantsEsc() && m.query.ClientMatterID != "" {
		out = append(out, keys.Hint(k.Back, "clear client-matter"))
	}
	out = append(out, widgets.TableHints(k, m.Table)...)
	return append(out, keys.Hint(k.Refresh, "refresh"))
}

func soonHint(on bool) string {
	if on {
		return "all purge times"
	}
	return "purging soon"
}
