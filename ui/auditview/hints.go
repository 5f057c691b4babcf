package auditview

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ContextKeys implements page.KeyHinter: the keys that act now.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	switch {
	case m.prompt != "":
		return []key.Binding{keys.Hint(k.Enter, "apply"), keys.Hint(k.Back, "cancel")}
	case m.pickingType:
		return []key.Binding{keys.Hint(k.Down, "next"), keys.Hint(k.Enter, "apply"), keys.Hint(k.Back, "cancel")}
	case m.detail:
		return []key.Binding{keys.Hint(k.Down, "scroll"), keys.Hint(k.Back, "close"), keys.Hint(k.Enter, "close")}
	case m.Table.Filtering():
		return widgets.TableHints(k, m.Table)
	}
	var out []key.Binding
	if m.Table.Len() > 0 {
		out = append(out, keys.Hint(k.Enter, "details"))
	}
	follow := "follow"
	if m.following {
		follow = "stop following"
	}
	own := "show own reads"
	if m.showOwn {
		own = "hide own reads"
	}
	out = append(out, keys.Hint(k.Follow, follow), keys.Hint(k.AuditJump, "jump to time"),
		keys.Hint(k.Top, "oldest"), keys.Hint(k.Bottom, "newest"),
		keys.Hint(k.TypeCycle, "type"), keys.Hint(k.TypeFilter, "type a type"), keys.Hint(k.AuditUser, "user"), keys.Hint(k.AuditIP, "address"), keys.Hint(k.OwnReads, own))
	out = append(out, widgets.TableHints(k, m.Table)...)
	return append(out, keys.Hint(k.Mark, "mark"), keys.Hint(k.Refresh, "refresh"))
}
