package filestatusview

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ContextKeys implements page.KeyHinter. It labels the groups behind 1-5
// on screen, and offers R only where it acts: on a stuck or failed row (or
// marked rows) with the journal that knows their paths.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	switch {
	case m.confirm != nil:
		return nil // the dialog says what it wants; the root offers enter and esc
	case m.pasting:
		return []key.Binding{keys.Hint(k.Enter, "add the IDs"), keys.Hint(k.Back, "cancel")}
	case m.Table.Filtering():
		return widgets.TableHints(k, m.Table)
	}
	var out []key.Binding
	if m.canReupload() {
		out = append(out, keys.Hint(k.Reupload, "re-upload"))
	}
	all := keys.HintKey(k.GroupFilter, "0", "all")
	if m.group != allGroups {
		out = append(out, all) // the way back comes first while one group is shown
	}
	for g := group(1); g <= 5; g++ {
		out = append(out, keys.HintKey(k.GroupFilter, string(rune('0'+g)), g.String()))
	}
	out = append(out, all, keys.Hint(k.PasteIDs, "add IDs"))
	out = append(out, widgets.TableHints(k, m.Table)...)
	return append(out, keys.Hint(k.ToggleIDs, "whole IDs"), keys.Hint(k.Refresh, "poll now"))
}

// canReupload: R would offer to re-upload something (askReupload's rule).
func (m *Model) canReupload() bool {
	if m.env.Journal == nil || !m.env.Keys.Reupload.Enabled() {
		return false
	}
	ids := m.Table.MarkedIDs()
	if len(ids) == 0 {
		if id := m.SelectedID(); id != "" {
			ids = []string{id}
		}
	}
	now := m.env.Clock()
	for _, id := range ids {
		if i, ok := m.tr.Index(id); ok {
			switch m.tr.Files[i].Group(now, m.opts.StuckAfter) {
			case filestatus.Stuck, filestatus.FailedRecoverable, filestatus.FailedUnrecoverable:
				return true
			}
		}
	}
	return false
}
