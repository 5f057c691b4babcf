package mattersview

import (
	"encoding/csv"
	"slices"
	"strings"

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

// SelectedID implements page.Selector, so that x marks and y copies here
// as in every table: a receipt's ID in the list (what `matters receipt`
// takes), a pair as a line of a matter file ("C-1,2024-0001") in a preview
// or a receipt, so the marked failures of a run paste into a file to send
// again. None while a path is typed, a run goes on or a confirmation has
// the keys.
func (m *Model) SelectedID() string {
	if !m.showsTable() {
		return ""
	}
	if m.mode == modeList {
		r, _ := m.table().Selected()
		return r.ID
	}
	i, ok := m.table().SelectedIndex()
	if !ok {
		return ""
	}
	return m.pairLine(i)
}

// MarkedIDs are the marked rows as SelectedID gives them, for y.
func (m *Model) MarkedIDs() []string {
	if !m.showsTable() {
		return nil
	}
	if m.mode == modeList {
		return m.table().MarkedIDs()
	}
	var out []string
	for _, i := range m.table().MarkedIndexes() {
		out = append(out, m.pairLine(i))
	}
	return out
}

// pairLine is row i's pair (a source index of the mode's table) as a CSV
// record: quoted where an ID holds a comma or a quote, as the file had it.
func (m *Model) pairLine(i int) string {
	var c, mt string
	switch {
	case m.mode == modeReceipt && i < len(m.items):
		c, mt = m.items[i].ClientID, m.items[i].MatterID
	case m.mode == modePreview && i < len(m.rejected):
		c, mt = m.rejected[i].ClientID, m.rejected[i].MatterID
	default:
		return ""
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{c, mt}) // into a strings.Builder: cannot fail
	w.Flush()
	return strings.TrimSuffix(b.String(), "\n")
}

func (m *Model) showsTable() bool {
	return m.env.Keys.MattersAvailable() && m.confirm == nil && m.mode != modePath && m.mode != modeRun
}
