package matters

import (
	"slices"

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
	k := m.env.Keys
	for _, b := range m.Help() {
		if empty && len(b.Keys()) == 1 && b.Keys()[0] == "enter" {
			continue // enter opens the selected row: there is none
		}
		// a filter with no value to cycle through acts on nothing: the
		// root says so (a receipt without error codes and its t)
		if m.mode == modeReceipt && (sameKeys(b, k.TypeCycle) && len(sortedKeys(m.codes)) == 0 && m.code == "" ||
			sameKeys(b, k.StatusFilter) && len(sortedKeys(m.receipt.Counts)) == 0 && m.result == "") {
			continue
		}
		out = append(out, b)
	}
	if m.showsTable() { // not on the page a session without the matter job shows: no table there
		out = append(out, widgets.TableHints(m.env.Keys, m.table())...)
	}
	return out
}

func sameKeys(a, b key.Binding) bool { return slices.Equal(a.Keys(), b.Keys()) }

// SelectedID implements page.Selector: the shown table's selected row (a
// receipt's ID in the list, a pair's line in a preview or a receipt), so
// that x marks and y copies here as in every table; none while a path is
// typed, a run goes on or a confirmation has the keys.
func (m *Model) SelectedID() string {
	if !m.showsTable() {
		return ""
	}
	r, _ := m.table().Selected()
	return r.ID
}

// MarkedIDs are the marked rows' IDs, for y.
func (m *Model) MarkedIDs() []string {
	if !m.showsTable() {
		return nil
	}
	return m.table().MarkedIDs()
}

func (m *Model) showsTable() bool {
	return m.env.Keys.MattersAvailable() && m.confirm == nil && m.mode != modePath && m.mode != modeRun
}
