package uploadview

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// ContextKeys implements page.KeyHinter: the keys of the stage on screen.
func (m *Model) ContextKeys() []key.Binding {
	k := m.env.Keys
	switch m.stage {
	case stagePath:
		return []key.Binding{keys.Hint(k.NextTab, "complete"), keys.Hint(k.Enter, "continue"),
			keys.Hint(k.DuplicateMode, "duplicate mode"), keys.Hint(k.Back, "back")}
	case stageConfirm:
		if m.confirm != nil {
			return nil // the dialog says what it wants; the root offers enter and esc
		}
		return []key.Binding{keys.Hint(k.Enter, "upload"), keys.Hint(k.DuplicateMode, "duplicate mode"),
			keys.Hint(k.Back, "change the path")}
	case stageRun:
		if !m.shared.stopping() {
			return []key.Binding{keys.Hint(k.Back, "stop after this request")}
		}
	case stageDone:
		if m.undoConfirm != nil {
			return nil
		}
		if _, _, ok := m.undoable(); ok {
			return []key.Binding{keys.Hint(k.UndoRun, "undo this upload")}
		}
	}
	return nil
}
